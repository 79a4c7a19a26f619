/* Linear and cubic Resize: every output element is a weighted sum of input
 * elements, the product over axes of per-axis taps computed at compile time. */
#include "kernel.h"

/* t: out, in; p: rank (1..8), extrapolation (double bits), ntaps[rank], dims[rank] (output), then for each axis d:
 * dims[d] * ntaps[d] input offsets (elements; a first tap of -1 marks a position outside the input, which gives
 * the extrapolation value), then as many weights (double bits).
 * out[idx] = sum over tap combinations of prod(w[d][idx[d]][k[d]]) * in[sum(off[d][idx[d]][k[d]])]. */
#define RESIZE(NAME, T)                                                                                                \
  GLOW_KERNEL(resize_##NAME) {                                                                                         \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    int64_t r = p[0], n = 1, idx[8] = {0};                                                                             \
    double extrapolation = glow_pf(p[1]);                                                                              \
    const int64_t *nt = p + 2, *dims = p + 2 + r, *q = p + 2 + 2 * r, *off[8], *w[8];                                  \
    for (int64_t d = 0; d < r; d++) {                                                                                  \
      off[d] = q;                                                                                                      \
      q += dims[d] * nt[d];                                                                                            \
      w[d] = q;                                                                                                        \
      q += dims[d] * nt[d];                                                                                            \
      n *= dims[d];                                                                                                    \
    }                                                                                                                  \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      int64_t outside = 0, combos = 1;                                                                                 \
      for (int64_t d = 0; d < r; d++) {                                                                                \
        outside |= off[d][idx[d] * nt[d]] < 0;                                                                         \
        combos *= nt[d];                                                                                               \
      }                                                                                                                \
      double acc = 0;                                                                                                  \
      for (int64_t c = 0; !outside && c < combos; c++) {                                                               \
        int64_t rest = c, src = 0;                                                                                     \
        double wt = 1;                                                                                                 \
        for (int64_t d = r - 1; d >= 0; d--) {                                                                         \
          int64_t k = idx[d] * nt[d] + rest % nt[d];                                                                   \
          rest /= nt[d];                                                                                               \
          src += off[d][k];                                                                                            \
          wt *= glow_pf(w[d][k]);                                                                                      \
        }                                                                                                              \
        acc += wt * (double)x[src];                                                                                    \
      }                                                                                                                \
      o[i] = (T)(outside ? extrapolation : acc);                                                                       \
      for (int64_t d = r - 1; d >= 0 && ++idx[d] == dims[d]; d--)                                                      \
        idx[d] = 0;                                                                                                    \
    }                                                                                                                  \
  }

RESIZE(f32, float)
RESIZE(f64, double)
