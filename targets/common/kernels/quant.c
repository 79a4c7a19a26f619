/* QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear.
 * Common params: outer, ext, inner: the tensor as outer x ext x inner, the
 * scale and zero point of element (o, a, i) being scale[a] and zp[a] (ext is 1
 * for per-tensor parameters). */
#include "kernels/quant.h"

/* y = saturate(round(x / scale) + zp); ONNX divides (no reciprocal), so do we.
 * t: Y (int8 or uint8), X, scale, zero point (may be NULL); p: common, y signed */
#define QUANTIZE(SUF, T)                                                                                               \
  GLOW_KERNEL(quantize_##SUF) {                                                                                        \
    uint8_t *y = t[0];                                                                                                 \
    const T *x = (const T *)t[1];                                                                                      \
    const float *s = (const float *)t[2];                                                                              \
    int64_t outer = p[0], ext = p[1], inner = p[2], sgn = p[3];                                                        \
    for (int64_t o = 0, k = 0; o < outer; o++)                                                                         \
      for (int64_t a = 0; a < ext; a++, k += inner) {                                                                  \
        float sv = s[a];                                                                                               \
        int32_t zv = glow_q_zero(t[3], a, (int)sgn);                                                                   \
        for (int64_t i = 0; i < inner; i++)                                                                            \
          y[k + i] = glow_q_saturate((float)x[k + i] / sv, zv, (int)sgn);                                              \
      }                                                                                                                \
  }

QUANTIZE(f32, float)
QUANTIZE(i32, int32_t)

/* y = (x - zp) * scale. t: Y (float), X, scale, zero point (may be NULL);
 * p: common, x signed (q8: int8 or uint8 by the flag). */
GLOW_KERNEL(dequantize_q8) {
  float *y = (float *)t[0];
  const uint8_t *x = t[1];
  const float *s = (const float *)t[2];
  int64_t outer = p[0], ext = p[1], inner = p[2], sgn = p[3];
  for (int64_t o = 0, k = 0; o < outer; o++)
    for (int64_t a = 0; a < ext; a++, k += inner) {
      float sv = s[a];
      int32_t zv = glow_q_zero(t[3], a, (int)sgn);
      for (int64_t i = 0; i < inner; i++)
        y[k + i] = (float)(glow_q_get(x, k + i, (int)sgn) - zv) * sv;
    }
}

GLOW_KERNEL(dequantize_i32) {
  float *y = (float *)t[0];
  const int32_t *x = (const int32_t *)t[1], *z = (const int32_t *)t[3];
  const float *s = (const float *)t[2];
  int64_t outer = p[0], ext = p[1], inner = p[2];
  for (int64_t o = 0, k = 0; o < outer; o++)
    for (int64_t a = 0; a < ext; a++, k += inner) {
      float sv = s[a];
      int64_t zv = z ? z[a] : 0;
      for (int64_t i = 0; i < inner; i++)
        y[k + i] = (float)((int64_t)x[k + i] - zv) * sv;
    }
}

/* uint8 over [min(x, 0), max(x, 0)]: scale = (max - min) / 255, zero point =
 * saturate(round(-min / scale)), then QuantizeLinear.
 * t: Y, Y_scale, Y_zero_point (either may be NULL), X; p: numel */
GLOW_KERNEL(dynamic_quantize_f32) {
  uint8_t *y = t[0];
  const float *x = (const float *)t[3];
  int64_t n = p[0];
  float lo = 0.0f, hi = 0.0f;
  for (int64_t i = 0; i < n; i++) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  float scale = (hi - lo) / 255.0f;
  int32_t zp = glow_q_saturate(0.0f - lo / scale, 0, 0);
  for (int64_t i = 0; i < n; i++)
    y[i] = glow_q_saturate(x[i] / scale, zp, 0);
  if (t[1])
    *(float *)t[1] = scale;
  if (t[2])
    *t[2] = (uint8_t)zp;
}
