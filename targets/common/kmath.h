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

/* nn kernels (glow_nn_): window ranges and a positive-base power. */

/* Sliding windows: the indices i in [0, n) with 0 <= i*s + off < lim are [*lo, *hi). */
static inline void glow_nn_range(int64_t off, int64_t s, int64_t lim, int64_t n, int64_t *lo, int64_t *hi) {
  int64_t l = off >= 0 ? 0 : (-off + s - 1) / s;
  int64_t h = lim - 1 - off < 0 ? 0 : (lim - 1 - off) / s + 1;
  h = h < n ? h : n;
  *lo = l < h ? l : h;
  *hi = h;
}

/* ln x for x > 0 (x = 2^e * m, m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh((m-1)/(m+1))). */
static inline float glow_nn_logf(float x) {
  if (!(x > 0))
    return x == 0 ? -glow_bits_f(0x7f800000u) : glow_bits_f(0x7fc00000u);
  if (x > 3.40282347e38f)
    return x;
  int32_t e = 0;
  if (x < 1.17549435e-38f) {
    x *= 16777216.0f;
    e = -24;
  }
  uint32_t b = glow_f_bits(x);
  e += (int32_t)((b >> 23) & 0xff) - 127;
  float m = glow_bits_f((b & 0x007fffffu) | 0x3f800000u);
  if (m > 1.41421356f) {
    m *= 0.5f;
    e += 1;
  }
  float f = (m - 1.0f) / (m + 1.0f), s = f * f;
  float p = 1.0f + s * (1.0f / 3 + s * (1.0f / 5 + s * (1.0f / 7 + s * (1.0f / 9 + s * (1.0f / 11)))));
  return (float)e * 0.693145752f + (2.0f * f * p + (float)e * 1.42860677e-6f);
}

/* x^y for x >= 0. */
static inline float glow_nn_powf(float x, float y) {
  if (y == 1.0f)
    return x;
  if (y == 0.5f)
    return __builtin_sqrtf(x);
  if (x == 0.0f)
    return y > 0 ? 0.0f : (y == 0 ? 1.0f : glow_bits_f(0x7f800000u));
  return glow_expf(y * glow_nn_logf(x));
}

#endif
