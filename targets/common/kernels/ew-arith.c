/* Binary arithmetic kernels with numpy broadcasting: add, sub, mul, div, mod
 * (divisor's sign), fmod (dividend's sign), max, min, bitshift.
 * t: out, a, b; p: glow_abi_ew of a and b (GLOW_EW_BINARY, kernels/elementwise.h).
 * Integer + - * wrap; integer division or remainder by 0 gives 0 and
 * INT_MIN / -1 wraps, rather than trapping. */
#include "kernels/elementwise.h"

#define WRAP(s, op) (GLOW_EW_C(s))((GLOW_EW_U(s))a op (GLOW_EW_U(s))b)
#define K_ADD(s, _) GLOW_EW_BINARY(add_##s, s, s, s, WRAP(s, +))
#define K_SUB(s, _) GLOW_EW_BINARY(sub_##s, s, s, s, WRAP(s, -))
#define K_MUL(s, _) GLOW_EW_BINARY(mul_##s, s, s, s, WRAP(s, *))
GLOW_EW_NUMERIC(K_ADD, _)
GLOW_EW_NUMERIC(K_SUB, _)
GLOW_EW_NUMERIC(K_MUL, _)

#define K_DIV_F(s, _) GLOW_EW_BINARY(div_##s, s, s, s, a / b)
#define K_DIV_S(s, _) GLOW_EW_BINARY(div_##s, s, s, s, b == 0 ? 0 : b == -1 ? (GLOW_EW_C(s))(0 - (GLOW_EW_U(s))a) : a / b)
#define K_DIV_U(s, _) GLOW_EW_BINARY(div_##s, s, s, s, b == 0 ? 0 : a / b)
GLOW_EW_FLOATS(K_DIV_F, _)
GLOW_EW_SINTS(K_DIV_S, _)
GLOW_EW_UINTS(K_DIV_U, _)

/* numpy's remainder: the result takes the divisor's sign. */
static inline double mod_f(double a, double b) {
  double r = glow_fmod(a, b);
  return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}
static inline int64_t mod_s(int64_t a, int64_t b) {
  if (b == 0 || b == -1)
    return 0;
  int64_t r = a % b;
  return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}
#define K_MOD_F(s, _) GLOW_EW_BINARY(mod_##s, s, s, s, (GLOW_EW_C(s))mod_f(a, b))
#define K_MOD_S(s, _) GLOW_EW_BINARY(mod_##s, s, s, s, (GLOW_EW_C(s))mod_s(a, b))
#define K_MOD_U(s, _) GLOW_EW_BINARY(mod_##s, s, s, s, b == 0 ? 0 : a % b)
GLOW_EW_FLOATS(K_MOD_F, _)
GLOW_EW_SINTS(K_MOD_S, _)
GLOW_EW_UINTS(K_MOD_U, _)
#define K_FMOD_F(s, _) GLOW_EW_BINARY(fmod_##s, s, s, s, (GLOW_EW_C(s))glow_fmod(a, b))
#define K_FMOD_S(s, _) GLOW_EW_BINARY(fmod_##s, s, s, s, b == 0 || b == -1 ? 0 : a % b)
GLOW_EW_FLOATS(K_FMOD_F, _)
GLOW_EW_SINTS(K_FMOD_S, _)
#define K_FMOD_U(s, _) GLOW_EW_BINARY(fmod_##s, s, s, s, b == 0 ? 0 : a % b)
GLOW_EW_UINTS(K_FMOD_U, _)

/* NaN in either input gives NaN, as numpy's maximum and minimum. */
#define K_MAX_F(s, _) GLOW_EW_BINARY(max_##s, s, s, s, a != a || a > b ? a : b)
#define K_MIN_F(s, _) GLOW_EW_BINARY(min_##s, s, s, s, a != a || a < b ? a : b)
#define K_MAX_I(s, _) GLOW_EW_BINARY(max_##s, s, s, s, a > b ? a : b)
#define K_MIN_I(s, _) GLOW_EW_BINARY(min_##s, s, s, s, a < b ? a : b)
GLOW_EW_FLOATS(K_MAX_F, _)
GLOW_EW_FLOATS(K_MIN_F, _)
GLOW_EW_SINTS(K_MAX_I, _)
GLOW_EW_SINTS(K_MIN_I, _)
GLOW_EW_UINTS(K_MAX_I, _)
GLOW_EW_UINTS(K_MIN_I, _)

/* Shifts by the type's width or more give 0. */
#define BITS(s) (8 * (GLOW_EW_C(s))sizeof(GLOW_EW_T(s)))
#define K_SHL(s, _) GLOW_EW_BINARY(shl_##s, s, s, s, b >= BITS(s) ? 0 : a << b)
#define K_SHR(s, _) GLOW_EW_BINARY(shr_##s, s, s, s, b >= BITS(s) ? 0 : a >> b)
GLOW_EW_UINTS(K_SHL, _)
GLOW_EW_UINTS(K_SHR, _)
