/* Linear and cubic Resize: every output element is a weighted sum of input
 * elements, the product over axes of per-axis taps computed at compile time. */
#include "kernel.h"

#define RESIZE_MAX_OUTER_TAPS 256 /* tap combinations over all axes but the last (the lowering checks) */

/* t: out, in; p: glow_abi_resize (a first tap of -1 marks a position outside the input, which gives the
 * extrapolation value).
 * out[idx] = sum over tap combinations of prod(w[d][idx[d]][k[d]]) * in[sum(off[d][idx[d]][k[d]])].
 * The combinations over the leading axes are gathered once per output row. */
#define RESIZE(NAME, T)                                                                                                \
  GLOW_KERNEL(resize_##NAME) {                                                                                         \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_resize *ap = (const glow_abi_resize *)p;                                                            \
    int64_t r = ap->r, outer = 1, idx[8] = {0}, co[RESIZE_MAX_OUTER_TAPS];                                             \
    double extrapolation = glow_pf(ap->extrapolation), cw[RESIZE_MAX_OUTER_TAPS];                                      \
    const int64_t *nt = ap->ntaps, *dims = GLOW_ABI_RESIZE_DIMS(ap), *q = GLOW_ABI_RESIZE_TAPS(ap), *off[8], *w[8];    \
    for (int64_t d = 0; d < r; d++) {                                                                                  \
      off[d] = q;                                                                                                      \
      q += dims[d] * nt[d];                                                                                            \
      w[d] = q;                                                                                                        \
      q += dims[d] * nt[d];                                                                                            \
      if (d < r - 1)                                                                                                   \
        outer *= dims[d];                                                                                              \
    }                                                                                                                  \
    int64_t len = dims[r - 1], lt = nt[r - 1];                                                                         \
    const int64_t *lo = off[r - 1], *lw = w[r - 1];                                                                    \
    for (int64_t i = 0; i < outer; i++, o += len) {                                                                    \
      int64_t nc = 1, outside = 0;                                                                                     \
      co[0] = 0;                                                                                                       \
      cw[0] = 1;                                                                                                       \
      for (int64_t d = 0; d < r - 1; d++) { /* expand the combinations in place, from the top down */                  \
        const int64_t *od = off[d] + idx[d] * nt[d], *wd = w[d] + idx[d] * nt[d];                                      \
        outside |= od[0] < 0;                                                                                          \
        for (int64_t c = nc - 1; c >= 0; c--)                                                                          \
          for (int64_t k = nt[d] - 1; k >= 0; k--) {                                                                   \
            co[c * nt[d] + k] = co[c] + od[k];                                                                         \
            cw[c * nt[d] + k] = cw[c] * glow_pf(wd[k]);                                                                \
          }                                                                                                            \
        nc *= nt[d];                                                                                                   \
      }                                                                                                                \
      for (int64_t j = 0; j < len; j++) {                                                                              \
        const int64_t *oj = lo + j * lt, *wj = lw + j * lt;                                                            \
        double acc = 0;                                                                                                \
        for (int64_t c = 0; c < nc; c++)                                                                               \
          for (int64_t k = 0; k < lt; k++)                                                                             \
            acc += cw[c] * glow_pf(wj[k]) * (double)x[co[c] + oj[k]];                                                  \
        o[j] = (T)(outside || oj[0] < 0 ? extrapolation : acc);                                                        \
      }                                                                                                                \
      for (int64_t d = r - 2; d >= 0 && ++idx[d] == dims[d]; d--)                                                      \
        idx[d] = 0;                                                                                                    \
    }                                                                                                                  \
  }

RESIZE(f32, float)
RESIZE(f64, double)
