/* Freestanding float math for kernels: no libm calls, and nothing that LLVM
 * lowers to a libm call on targets without the instruction (floor, fma, ...). */
#ifndef GLOW_KMATH_H
#define GLOW_KMATH_H

#include <stdint.h>

static inline float glow_bits_f(uint32_t u) {
  union {
    uint32_t u;
    float f;
  } x;
  x.u = u;
  return x.f;
}

static inline uint32_t glow_f_bits(float f) {
  union {
    uint32_t u;
    float f;
  } x;
  x.f = f;
  return x.u;
}

/* e^x, about 1 ulp on [-87, 88]: x = n*ln2 + r, |r| <= ln2/2, degree-6 polynomial. */
static inline float glow_expf(float x) {
  if (x != x)
    return x;
  if (x > 88.72283f)
    return glow_bits_f(0x7f800000u);
  if (x < -103.97208f)
    return 0.0f;
  float fn = x * 1.44269504f;
  int32_t n = (int32_t)(fn + (fn >= 0 ? 0.5f : -0.5f));
  float r = x - (float)n * 0.693145752f;
  r = r - (float)n * 1.42860677e-6f;
  float p = 1.0f + r * (1.0f + r * (0.5f + r * (0.166666672f + r * (0.0416666418f +
                   r * (0.00833336543f + r * (0.00138925866f + r * 0.000198527617f))))));
  /* 2^n in two steps so that n down to -149 stays representable. */
  int32_t n1 = n / 2, n2 = n - n1;
  return p * glow_bits_f((uint32_t)(n1 + 127) << 23) * glow_bits_f((uint32_t)(n2 + 127) << 23);
}

#endif
