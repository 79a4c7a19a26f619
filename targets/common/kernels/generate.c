/* Range, windows, EyeLike, Trilu: outputs generated from positions. */
#include "kernel.h"
#include "kmath.h"

/* t: out; p: glow_abi_range. out[i] = start + i * delta. */
#define RANGE_F(NAME, T)                                                                                               \
  GLOW_KERNEL(range_##NAME) {                                                                                          \
    T *o = (T *)t[0];                                                                                                  \
    const glow_abi_range *ap = (const glow_abi_range *)p;                                                              \
    double start = glow_pf(ap->start), delta = glow_pf(ap->delta);                                                     \
    for (int64_t i = 0; i < ap->n; i++)                                                                                \
      o[i] = (T)(start + (double)i * delta);                                                                           \
  }
#define RANGE_I(NAME, T)                                                                                               \
  GLOW_KERNEL(range_##NAME) {                                                                                          \
    T *o = (T *)t[0];                                                                                                  \
    const glow_abi_range *ap = (const glow_abi_range *)p;                                                              \
    for (int64_t i = 0; i < ap->n; i++)                                                                                \
      o[i] = (T)(ap->start + i * ap->delta);                                                                           \
  }
RANGE_F(f32, float)
RANGE_F(f64, double)
RANGE_I(i16, int16_t)
RANGE_I(i32, int32_t)
RANGE_I(i64, int64_t)

/* t: out; p: glow_abi_window. out[i] = a0 - a1 cos(2 pi i / n) + a2 cos(4 pi i / n). */
#define WINDOW(NAME, T)                                                                                                \
  GLOW_KERNEL(window_##NAME) {                                                                                         \
    T *o = (T *)t[0];                                                                                                  \
    const glow_abi_window *ap = (const glow_abi_window *)p;                                                            \
    double n = glow_pf(ap->n), a0 = glow_pf(ap->a0), a1 = glow_pf(ap->a1), a2 = glow_pf(ap->a2);                       \
    for (int64_t i = 0; i < ap->size; i++) {                                                                           \
      double x = n > 0 ? 6.283185307179586 * (double)i / n : 0;                                                        \
      o[i] = (T)(a0 - a1 * glow_cos(x) + a2 * glow_cos(2 * x));                                                        \
    }                                                                                                                  \
  }
WINDOW(f32, float)
WINDOW(f64, double)

/* t: out; p: glow_abi_eyelike. out[i][j] = j - i == k ? one : 0. */
#define EYELIKE(S, T)                                                                                                  \
  GLOW_KERNEL(eyelike_e##S) {                                                                                          \
    T *o = (T *)t[0];                                                                                                  \
    const glow_abi_eyelike *ap = (const glow_abi_eyelike *)p;                                                          \
    int64_t rows = ap->rows, cols = ap->cols, k = ap->k;                                                               \
    T one = (T)(uint64_t)ap->one;                                                                                      \
    for (int64_t i = 0; i < rows; i++)                                                                                 \
      for (int64_t j = 0; j < cols; j++)                                                                               \
        o[i * cols + j] = j - i == k ? one : (T)0;                                                                     \
  }

/* t: out, in, k (int64 scalar; NULL: 0); p: glow_abi_trilu.
 * Keeps element (i, j) of every matrix where j - i >= k (upper) or j - i <= k (lower); zero elsewhere. */
#define TRILU(S, T)                                                                                                    \
  GLOW_KERNEL(trilu_e##S) {                                                                                            \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_trilu *ap = (const glow_abi_trilu *)p;                                                              \
    int64_t batch = ap->batch, rows = ap->rows, cols = ap->cols, upper = ap->upper;                                    \
    int64_t k = t[2] ? *(const int64_t *)t[2] : 0;                                                                     \
    for (int64_t b = 0; b < batch; b++)                                                                                \
      for (int64_t i = 0; i < rows; i++)                                                                               \
        for (int64_t j = 0; j < cols; j++, o++, x++)                                                                   \
          *o = (upper ? j - i >= k : j - i <= k) ? *x : (T)0;                                                          \
  }

#define BY_SIZE(S, T) EYELIKE(S, T) TRILU(S, T)
BY_SIZE(1, uint8_t)
BY_SIZE(2, uint16_t)
BY_SIZE(4, uint32_t)
BY_SIZE(8, uint64_t)

/* t: out [nspec][nmel]; p: glow_abi_melweight.
 * Filter i rises from bins[i] to 1 at bins[i + 1] and falls to 0 at bins[i + 2]; zero elsewhere. */
#define MELWEIGHT(NAME, T)                                                                                             \
  GLOW_KERNEL(melweight_##NAME) {                                                                                      \
    T *o = (T *)t[0];                                                                                                  \
    const glow_abi_melweight *ap = (const glow_abi_melweight *)p;                                                      \
    int64_t nspec = ap->nspec, nmel = ap->nmel;                                                                        \
    const int64_t *b = ap->bins;                                                                                       \
    for (int64_t j = 0; j < nspec * nmel; j++)                                                                         \
      o[j] = 0;                                                                                                        \
    for (int64_t i = 0; i < nmel; i++) {                                                                               \
      int64_t l = b[i], c = b[i + 1], h = b[i + 2];                                                                    \
      if (c == l)                                                                                                      \
        o[c * nmel + i] = 1;                                                                                           \
      for (int64_t j = l; c > l && j <= c; j++)                                                                        \
        o[j * nmel + i] = (T)((double)(j - l) / (double)(c - l));                                                      \
      for (int64_t j = c; j < h; j++)                                                                                  \
        o[j * nmel + i] = (T)((double)(h - j) / (double)(h - c));                                                      \
    }                                                                                                                  \
  }
MELWEIGHT(f32, float)
MELWEIGHT(f64, double)
