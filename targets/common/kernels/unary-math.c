/* Elementwise unary kernels: math functions and activations.
 * t: out, in; p: glow_abi_unary, where a and b are the op's attributes as doubles
 * (0 when it has fewer): LeakyRelu, Elu, Celu, ThresholdedRelu a = alpha;
 * HardSigmoid a = alpha, b = beta; Selu a = alpha, b = gamma; Shrink a = bias,
 * b = lambd; IsInf a = detect_negative, b = detect_positive; Gelu a = 1 for the
 * tanh approximation.
 * float16 and bfloat16 compute in float. Comparisons are written so that NaN
 * propagates (x < 0 ? 0 : x keeps a NaN, as numpy's maximum does). */
#include "kernel.h"
#include "kmath.h"

#include "kernels/float-types.h"

/* Math by compute type. */
#define FN(fn, x) _Generic((x), float: fn##f, double: fn)(x)
#define EXP(x) FN(glow_exp, x)
#define EXPM1(x) FN(glow_expm1, x)
#define LOG1P(x) FN(glow_log1p, x)
#define ABS(x) FN(glow_fabs, x)

static inline double sigmoid_d(double x) {
  double e = glow_exp(-glow_fabs(x));
  return (x >= 0 ? 1.0 : e) / (1.0 + e);
}

/* x tanh(ln(1 + e^x)) = x n / (n + 2) with n = e^x (e^x + 2); x beyond 20. */
static inline float mish_f(float x) {
  float e = glow_expf(x), n = e * (e + 2.0f);
  return x > 20.0f ? x : x * n / (n + 2.0f);
}
static inline double mish_d(double x) {
  double e = glow_exp(x), n = e * (e + 2.0);
  return x > 20.0 ? x : x * n / (n + 2.0);
}

/* 0.5 x (1 + erf(x / sqrt 2)), or with tanh(sqrt(2 / pi) (x + 0.044715 x^3)). */
static inline float gelu_f(float x, float tanh_form) {
  return tanh_form != 0 ? 0.5f * x * (1 + glow_tanhf(0.7978845608f * (x + 0.044715f * x * x * x)))
                        : 0.5f * x * (1 + glow_erff(x * 0.70710678f));
}
static inline double gelu_d(double x, double tanh_form) {
  return tanh_form != 0 ? 0.5 * x * (1 + glow_tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))
                        : 0.5 * x * (1 + glow_erf(x * 0.7071067811865476));
}

#define UNARY(name, s, expr)                                                                                 \
  GLOW_KERNEL(name##_##s) {                                                                                  \
    T_##s *o = (T_##s *)t[0];                                                                                \
    const T_##s *in = (const T_##s *)t[1];                                                                   \
    const glow_abi_unary *ap = (const glow_abi_unary *)p;                                                    \
    C_##s a = (C_##s)glow_pf(ap->a), b = (C_##s)glow_pf(ap->b);                                              \
    (void)a;                                                                                                 \
    (void)b;                                                                                                 \
    for (int64_t i = 0; i < ap->n; i++) {                                                                    \
      C_##s x = LD_##s(in[i]);                                                                               \
      o[i] = ST_##s(expr);                                                                                   \
    }                                                                                                        \
  }
#define FLOATS(name, expr)                                                                                   \
  UNARY(name, f32, expr)                                                                                     \
  UNARY(name, f64, expr)                                                                                     \
  UNARY(name, f16, expr)                                                                                     \
  UNARY(name, bf16, expr)

FLOATS(abs, ABS(x))
FLOATS(neg, -x)
FLOATS(reciprocal, 1 / x)
FLOATS(sqrt, FN(glow_sqrt, x))
FLOATS(exp, EXP(x))
FLOATS(log, FN(glow_log, x))
FLOATS(floor, FN(glow_floor, x))
FLOATS(ceil, FN(glow_ceil, x))
FLOATS(round, FN(glow_round, x))
FLOATS(sign, x > 0 ? 1 : x < 0 ? -1 : x)
FLOATS(sin, FN(glow_sin, x))
FLOATS(cos, FN(glow_cos, x))
FLOATS(tan, FN(glow_tan, x))
FLOATS(asin, FN(glow_asin, x))
FLOATS(acos, FN(glow_acos, x))
FLOATS(atan, FN(glow_atan, x))
FLOATS(sinh, FN(glow_sinh, x))
FLOATS(cosh, FN(glow_cosh, x))
FLOATS(asinh, FN(glow_asinh, x))
FLOATS(acosh, FN(glow_acosh, x))
FLOATS(atanh, FN(glow_atanh, x))
FLOATS(erf, FN(glow_erf, x))
FLOATS(tanh, FN(glow_tanh, x))
FLOATS(sigmoid, _Generic((x), float: glow_sigmoidf, double: sigmoid_d)(x))
FLOATS(softplus, (x > 0 ? x : 0) + LOG1P(EXP(-ABS(x))))
FLOATS(softsign, x / (1 + ABS(x)))
FLOATS(relu, x < 0 ? 0 : x)
FLOATS(leakyrelu, x < 0 ? a * x : x)
FLOATS(hardsigmoid, a * x + b < 0 ? 0 : a * x + b > 1 ? 1 : a * x + b)
FLOATS(hardswish, x + 3 < 0 ? 0 : x + 3 > 6 ? x : x * (x + 3) / 6) /* x + 3 is exact where it cancels */
FLOATS(elu, x < 0 ? a * EXPM1(x) : x)
FLOATS(selu, x > 0 ? b * x : b * (a * EXPM1(x)))
FLOATS(celu, x > 0 ? x : a * EXPM1(x / a))
FLOATS(thresholdedrelu, x > a ? x : 0)
FLOATS(mish, _Generic((x), float: mish_f, double: mish_d)(x))
FLOATS(gelu, _Generic((x), float: gelu_f, double: gelu_d)(x, a))
FLOATS(shrink, x < -b ? x + a : x > b ? x - a : 0)

/* Integer types: abs, neg, sign, relu; shrink up to 32 bits (exact in double).
 * Negation wraps (as numpy: abs and neg of the most negative value give it back). */
#define IUNARY(name, s, T, C, U, expr)                                                                       \
  GLOW_KERNEL(name##_##s) {                                                                                  \
    T *o = (T *)t[0];                                                                                        \
    const T *in = (const T *)t[1];                                                                           \
    const glow_abi_unary *ap = (const glow_abi_unary *)p;                                                    \
    double a = glow_pf(ap->a), b = glow_pf(ap->b);                                                           \
    (void)a;                                                                                                 \
    (void)b;                                                                                                 \
    for (int64_t i = 0; i < ap->n; i++) {                                                                    \
      C x = in[i];                                                                                           \
      o[i] = (T)(expr);                                                                                      \
    }                                                                                                        \
  }
#define SINTS(name, expr)                                                                                    \
  IUNARY(name, i8, int8_t, int32_t, uint32_t, expr)                                                          \
  IUNARY(name, i16, int16_t, int32_t, uint32_t, expr)                                                        \
  IUNARY(name, i32, int32_t, int32_t, uint32_t, expr)                                                        \
  IUNARY(name, i64, int64_t, int64_t, uint64_t, expr)
#define UINTS(name, expr)                                                                                    \
  IUNARY(name, u8, uint8_t, uint32_t, uint32_t, expr)                                                        \
  IUNARY(name, u16, uint16_t, uint32_t, uint32_t, expr)                                                      \
  IUNARY(name, u32, uint32_t, uint32_t, uint32_t, expr)                                                      \
  IUNARY(name, u64, uint64_t, uint64_t, uint64_t, expr)

SINTS(abs, x < 0 ? 0 - (uint64_t)x : (uint64_t)x)
UINTS(abs, x)
SINTS(neg, 0 - (uint64_t)x)
SINTS(sign, x > 0 ? 1 : x < 0 ? -1 : 0)
UINTS(sign, x > 0)
SINTS(relu, x < 0 ? 0 : x)

#define SHRINK_I (int64_t)(x < -b ? x + a : x > b ? x - a : 0)
IUNARY(shrink, i8, int8_t, double, double, SHRINK_I)
IUNARY(shrink, i16, int16_t, double, double, SHRINK_I)
IUNARY(shrink, i32, int32_t, double, double, SHRINK_I)
IUNARY(shrink, u8, uint8_t, double, double, SHRINK_I)
IUNARY(shrink, u16, uint16_t, double, double, SHRINK_I)
IUNARY(shrink, u32, uint32_t, double, double, SHRINK_I)

/* Boolean results: t: out (bool), in; p: glow_abi_unary as above. */
GLOW_KERNEL(not_b8) {
  uint8_t *o = t[0];
  const uint8_t *in = t[1];
  const glow_abi_unary *ap = (const glow_abi_unary *)p;
  for (int64_t i = 0; i < ap->n; i++)
    o[i] = !in[i];
}

#define PREDICATE(name, s, expr)                                                                             \
  GLOW_KERNEL(name##_##s) {                                                                                  \
    uint8_t *o = t[0];                                                                                       \
    const T_##s *in = (const T_##s *)t[1];                                                                   \
    const glow_abi_unary *ap = (const glow_abi_unary *)p;                                                    \
    int neg = glow_pf(ap->a) != 0, pos = glow_pf(ap->b) != 0;                                                \
    (void)neg;                                                                                               \
    (void)pos;                                                                                               \
    for (int64_t i = 0; i < ap->n; i++) {                                                                    \
      C_##s x = LD_##s(in[i]);                                                                               \
      o[i] = (expr);                                                                                         \
    }                                                                                                        \
  }
#define PREDICATES(name, expr)                                                                               \
  PREDICATE(name, f32, expr)                                                                                 \
  PREDICATE(name, f64, expr)                                                                                 \
  PREDICATE(name, f16, expr)                                                                                 \
  PREDICATE(name, bf16, expr)
PREDICATES(isnan, x != x)
PREDICATES(isinf, (neg && x == -(C_f64)GLOW_INF) || (pos && x == (C_f64)GLOW_INF))
