/* Variadic kernels (Sum, Mean, Max, Min of 1..63 inputs) with numpy
 * broadcasting: the output takes input 0, then each further input in turn.
 * t: out, in_0 .. in_{n-1}; p: glow_abi_ew_n. */
#include "kernels/elementwise.h"

#define K_VARIADIC(s, name, EXPR, ...)                                                                       \
  static inline void row_first_##name##_##s(GLOW_EW_T(s) *restrict o, const GLOW_EW_T(s) *restrict x,        \
                                            int64_t len, int64_t ix) {                                       \
    for (int64_t e = 0; e < len; e++)                                                                        \
      o[e] = x[e * ix];                                                                                      \
  }                                                                                                          \
  static inline void row_##name##_##s(GLOW_EW_T(s) *restrict o, const GLOW_EW_T(s) *restrict x, int64_t len, \
                                      int64_t ix) {                                                          \
    for (int64_t e = 0; e < len; e++) {                                                                      \
      GLOW_EW_C(s) a = GLOW_EW_LD(s, o[e]), b = GLOW_EW_LD(s, x[e * ix]);                                    \
      o[e] = GLOW_EW_ST(s, EXPR);                                                                            \
    }                                                                                                        \
  }                                                                                                          \
  GLOW_KERNEL(name##_n_##s) {                                                                                \
    GLOW_EW_T(s) *o = (GLOW_EW_T(s) *)t[0];                                                                  \
    const glow_abi_ew_n *ap = (const glow_abi_ew_n *)p;                                                      \
    int64_t n = ap->n, r = ap->r;                                                                            \
    const int64_t *dims = ap->dims, *st = GLOW_ABI_EW_N_STRIDES(ap);                                         \
    const GLOW_EW_T(s) *x0 = (const GLOW_EW_T(s) *)t[1];                                                     \
    GLOW_EW_ROWS(1, r, dims, st, row_first_##name##_##s(o + i, x0 + at[0], len, inc[0]););                   \
    for (int64_t k = 1; k < n; k++) {                                                                        \
      const GLOW_EW_T(s) *x = (const GLOW_EW_T(s) *)t[1 + k];                                                \
      GLOW_EW_ROWS(1, r, dims, st + k * r, row_##name##_##s(o + i, x + at[0], len, inc[0]););                \
    }                                                                                                        \
    __VA_ARGS__                                                                                              \
  }

/* float16 and bfloat16 Sum and Mean add in float, one output element at a time: rounding
 * each partial sum to 11 or 8 bits loses several ulps when inputs cancel. */
#define K_ACC_VARIADIC(s, name, FINISH)                                                                      \
  GLOW_KERNEL(name##_n_##s) {                                                                                \
    GLOW_EW_T(s) *o = (GLOW_EW_T(s) *)t[0];                                                                  \
    const glow_abi_ew_n *ap = (const glow_abi_ew_n *)p;                                                      \
    int64_t n = ap->n, r = ap->r, numel = 1, idx[8] = {0};                                                   \
    const int64_t *dims = ap->dims, *st = GLOW_ABI_EW_N_STRIDES(ap);                                         \
    for (int64_t d = 0; d < r; d++)                                                                          \
      numel *= dims[d];                                                                                      \
    for (int64_t i = 0; i < numel; i++) {                                                                    \
      float acc = 0;                                                                                         \
      for (int64_t k = 0; k < n; k++) {                                                                      \
        int64_t at = 0;                                                                                      \
        for (int64_t d = 0; d < r; d++)                                                                      \
          at += idx[d] * st[k * r + d];                                                                      \
        acc += GLOW_EW_LD(s, ((const GLOW_EW_T(s) *)t[1 + k])[at]);                                          \
      }                                                                                                      \
      o[i] = GLOW_EW_ST(s, FINISH);                                                                          \
      for (int64_t d = r - 1; d >= 0 && ++idx[d] == dims[d]; d--)                                            \
        idx[d] = 0;                                                                                          \
    }                                                                                                        \
  }

#define K_SUM(s, _) K_VARIADIC(s, sum, a + b, )
#define K_MEAN(s, _)                                                                                         \
  K_VARIADIC(s, mean, a + b, {                                                                               \
    int64_t numel = 1;                                                                                       \
    for (int64_t d = 0; d < r; d++)                                                                          \
      numel *= dims[d];                                                                                      \
    for (int64_t i = 0; i < numel; i++)                                                                      \
      o[i] = GLOW_EW_ST(s, GLOW_EW_LD(s, o[i]) / (GLOW_EW_C(s))n);                                           \
  })
#define K_MAX_F(s, _) K_VARIADIC(s, max, a != a || a > b ? a : b, )
#define K_MIN_F(s, _) K_VARIADIC(s, min, a != a || a < b ? a : b, )
#define K_MAX_I(s, _) K_VARIADIC(s, max, a > b ? a : b, )
#define K_MIN_I(s, _) K_VARIADIC(s, min, a < b ? a : b, )
K_SUM(f32, _)
K_SUM(f64, _)
K_MEAN(f32, _)
K_MEAN(f64, _)
K_ACC_VARIADIC(f16, sum, acc)
K_ACC_VARIADIC(bf16, sum, acc)
K_ACC_VARIADIC(f16, mean, acc / (float)n)
K_ACC_VARIADIC(bf16, mean, acc / (float)n)
GLOW_EW_FLOATS(K_MAX_F, _)
GLOW_EW_FLOATS(K_MIN_F, _)
GLOW_EW_SINTS(K_MAX_I, _)
GLOW_EW_SINTS(K_MIN_I, _)
GLOW_EW_UINTS(K_MAX_I, _)
GLOW_EW_UINTS(K_MIN_I, _)
