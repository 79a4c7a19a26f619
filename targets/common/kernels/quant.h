/* Shared by the quantized kernels (quant.c, qconv.c, qgemm.c): int8 and uint8
 * through one byte pointer and a signedness flag (a constant at model-compile
 * time, so the tests fold away), int16 through the same pointer, and the
 * saturating rounding of ONNX.
 * compiler/ops/quant-util.h computes the same in the reference interpreter:
 * the two must agree bit for bit. */
#ifndef GLOW_KERNELS_QUANT_H
#define GLOW_KERNELS_QUANT_H

#include "kernel.h"
#include "kmath.h"

static inline int32_t glow_q_get(const uint8_t *p, int64_t i, int sgn) {
  return sgn ? (int32_t)(int8_t)p[i] : (int32_t)p[i];
}

/* A zero point (0 when omitted): element i, or element 0 when it is shared. */
static inline int32_t glow_q_zero(const uint8_t *z, int64_t i, int sgn) { return z ? glow_q_get(z, i, sgn) : 0; }

/* saturate(round_half_even(v) + zp) for an int8 (sgn) or uint8 result: v is
 * clamped to [lo - zp, hi - zp] first (NaN to lo), then rounded by adding and
 * subtracting 1.5 * 2^23, exact below 2^22 in magnitude. Straight-line code,
 * so loops over it vectorize. */
static inline uint8_t glow_q_saturate(float v, int32_t zp, int sgn) {
  float lo = (float)((sgn ? -128 : 0) - zp), hi = (float)((sgn ? 127 : 255) - zp);
  v = v > lo ? v : lo;
  v = v < hi ? v : hi;
  v = (v + 12582912.0f) - 12582912.0f;
  return (uint8_t)((int32_t)v + zp);
}

/* int16 (Int16 quantization, glowc's extension of the QLinear ops): the same
 * accessors over 2-byte elements; int16 is always signed, so sgn is unused. */
static inline int32_t glow_q16_get(const uint8_t *p, int64_t i, int sgn) {
  (void)sgn;
  return ((const int16_t *)p)[i];
}
static inline int32_t glow_q16_zero(const uint8_t *z, int64_t i, int sgn) { return z ? glow_q16_get(z, i, sgn) : 0; }
static inline int16_t glow_q16_saturate(float v, int32_t zp) {
  float lo = (float)(-32768 - zp), hi = (float)(32767 - zp);
  v = v > lo ? v : lo;
  v = v < hi ? v : hi;
  v = (v + 12582912.0f) - 12582912.0f;
  return (int16_t)((int32_t)v + zp);
}

/* An element already loaded, as a number: int8 or uint8 by the flag; int16. */
#define GLOW_Q8_ELEM(v, sgn) ((sgn) ? (int32_t)(int8_t)(v) : (int32_t)(v))
#define GLOW_Q16_ELEM(v, sgn) ((int64_t)(v))

/* Element i of an int8/uint8 (q8) or int16 (q16) result set to saturate(round(v) + zp). */
static inline void glow_q_put(uint8_t *p, int64_t i, float v, int32_t zp, int sgn) { p[i] = glow_q_saturate(v, zp, sgn); }
static inline void glow_q16_put(uint8_t *p, int64_t i, float v, int32_t zp, int sgn) {
  (void)sgn;
  ((int16_t *)p)[i] = glow_q16_saturate(v, zp);
}

/* The same for 16 int32 sums, each times its multiplier m[i], into 16 bytes at
 * dst (lane by lane as above: the loop vectorizes). */
static inline void glow_q_saturate16(uint8_t *dst, const int32_t *acc, const float *m, int32_t zp, int sgn) {
  for (int i = 0; i < 16; i++)
    dst[i] = glow_q_saturate((float)acc[i] * m[i], zp, sgn);
}

/* The requantization multiplier of QLinearConv and QLinearMatMul, as ONNX
 * Runtime computes it: (x_scale * w_scale) / y_scale in float32. */
static inline float glow_q_multiplier(float xs, float ws, float ys) { return (xs * ws) / ys; }

#endif
