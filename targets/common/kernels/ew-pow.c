/* Pow with numpy broadcasting: base of a float type, int32 or int64, exponent
 * of any numeric type; the result has the base's type. Floats and float
 * exponents go through glow_pow in double; integer powers of integers
 * are exact (wrapping on overflow; negative exponents give 1/x^n truncated).
 * t: out, base, exponent; p: glow_abi_ew of base and exponent. */
#include "kernels/elementwise.h"

static inline int64_t ipow(int64_t x, uint64_t n) {
  uint64_t r = 1, b = (uint64_t)x;
  for (; n; n >>= 1, b *= b)
    if (n & 1)
      r *= b;
  return (int64_t)r;
}

static inline int64_t ipow_s(int64_t x, int64_t n) {
  if (n >= 0)
    return ipow(x, (uint64_t)n);
  if (x == 1 || x == -1)
    return n & 1 ? x : 1;
  return 0;
}

#define K_POW_F(e, s) GLOW_EW_BINARY(pow_##s##_##e, s, e, s, (GLOW_EW_C(s))glow_pow((double)a, (double)b))
#define K_POW_IS(e, s) GLOW_EW_BINARY(pow_##s##_##e, s, e, s, (GLOW_EW_C(s))ipow_s(a, b))
#define K_POW_IU(e, s) GLOW_EW_BINARY(pow_##s##_##e, s, e, s, (GLOW_EW_C(s))ipow(a, b))
#define ANY_EXPONENT(s)                                                                                      \
  GLOW_EW_NUMERIC(K_POW_F, s)
#define INT_BASE(s)                                                                                          \
  GLOW_EW_FLOATS(K_POW_F, s)                                                                                 \
  GLOW_EW_SINTS(K_POW_IS, s)                                                                                 \
  GLOW_EW_UINTS(K_POW_IU, s)
ANY_EXPONENT(f32)
ANY_EXPONENT(f64)
ANY_EXPONENT(f16)
ANY_EXPONENT(bf16)
INT_BASE(i32)
INT_BASE(i64)
