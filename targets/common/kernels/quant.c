/* QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearAdd, QLinearMul, QLinearGlobalAveragePool,
 * QLinearConcat, on int8/uint8 and (Int16 quantization: all but DynamicQuantizeLinear, QLinearMul and
 * QLinearConcat) int16; IntLookupTable.
 * Quantize and dequantize take glow_abi_quantize: the tensor as outer x len x
 * inner, the scale and zero point of element (o, a, i) being scale[a] and zp[a]
 * (len is 1 for per-tensor parameters). */
#include "kernels/elementwise.h"
#include "kernels/quant.h"
#include "qdot.h" /* glow_q_lookup64() */

/* Element k + i of X and Y with scale sv and zero point zv (glow_abi_quantize;
 * zero points may be NULL), running STMT over each. */
#define Q_AXIS_LOOP(ZERO, STMT)                                                                                        \
  const float *s = (const float *)t[2];                                                                                \
  const glow_abi_quantize *ap = (const glow_abi_quantize *)p;                                                          \
  int64_t outer = ap->outer, ext = ap->len, inner = ap->inner, sgn = ap->sign;                                         \
  for (int64_t o = 0, k = 0; o < outer; o++)                                                                           \
    for (int64_t a = 0; a < ext; a++, k += inner) {                                                                    \
      float sv = s[a];                                                                                                 \
      int32_t zv = ZERO(t[3], a, (int)sgn);                                                                            \
      for (int64_t i = 0; i < inner; i++)                                                                              \
        STMT;                                                                                                          \
    }

/* y = saturate(round(x / scale) + zp); ONNX divides (no reciprocal), so do we.
 * t: Y (int8 or uint8: quantize_*; int16: quantize16_*), X, scale, zero point
 * (may be NULL); p: glow_abi_quantize, sign: Y's */
#define QUANTIZE(NAME, T, PUT, ZERO)                                                                                   \
  GLOW_KERNEL(NAME) {                                                                                                  \
    uint8_t *y = t[0];                                                                                                 \
    const T *x = (const T *)t[1];                                                                                      \
    Q_AXIS_LOOP(ZERO, PUT(y, k + i, (float)x[k + i] / sv, zv, (int)sgn))                                               \
  }

QUANTIZE(quantize_f32, float, glow_q_put, glow_q_zero)
QUANTIZE(quantize_i32, int32_t, glow_q_put, glow_q_zero)
QUANTIZE(quantize16_f32, float, glow_q16_put, glow_q16_zero)
QUANTIZE(quantize16_i32, int32_t, glow_q16_put, glow_q16_zero)

/* y = (x - zp) * scale. t: Y (float), X, scale, zero point (may be NULL);
 * p: glow_abi_quantize, sign: X's (q8: int8 or uint8 by the flag; q16: int16). */
#define DEQUANTIZE(NAME, GET, ZERO)                                                                                    \
  GLOW_KERNEL(NAME) {                                                                                                  \
    float *y = (float *)t[0];                                                                                          \
    const uint8_t *x = t[1];                                                                                           \
    Q_AXIS_LOOP(ZERO, y[k + i] = (float)(GET(x, k + i, (int)sgn) - zv) * sv)                                           \
  }

DEQUANTIZE(dequantize_q8, glow_q_get, glow_q_zero)
DEQUANTIZE(dequantize_q16, glow_q16_get, glow_q16_zero)

GLOW_KERNEL(dequantize_i32) {
  float *y = (float *)t[0];
  const int32_t *x = (const int32_t *)t[1], *z = (const int32_t *)t[3];
  const float *s = (const float *)t[2];
  const glow_abi_quantize *ap = (const glow_abi_quantize *)p; /* up to sign */
  int64_t outer = ap->outer, ext = ap->len, inner = ap->inner;
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
 * t: Y, Y_scale, Y_zero_point (either may be NULL), X; p: glow_abi_count */
GLOW_KERNEL(dynamic_quantize_f32) {
  uint8_t *y = t[0];
  const float *x = (const float *)t[3];
  int64_t n = ((const glow_abi_count *)p)->n;
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

/* QLinearAdd (compiler/ops/quant-linear.c): in float32,
 * c = saturate(round((sa * (a - za) + sb * (b - zb)) / sc) + zc), the two
 * products and the sum as separate statements so that nothing fuses.
 * t: C, A, B, A_scale, A_zp, B_scale, B_zp, C_scale, C_zp (zero points may be NULL);
 * p: glow_abi_ew of A and B, then the int8 flag (all three share a dtype:
 * int8 or uint8 for _q8, int16 for _q16). */
#define QLINEAR_ADD(SUF, W, GET, ZERO, PUT)                                                                            \
  static inline void glow_q_add_row_##SUF(uint8_t *restrict c, const uint8_t *restrict a, const uint8_t *restrict b,   \
                                          int64_t len, int64_t ia, int64_t ib, float sa, int32_t za, float sb,         \
                                          int32_t zb, float sc, int32_t zc, int sgn) {                                 \
    for (int64_t e = 0; e < len; e++) {                                                                                \
      float va = sa * (float)(GET(a, e * ia, sgn) - za);                                                               \
      float vb = sb * (float)(GET(b, e * ib, sgn) - zb);                                                               \
      float v = va + vb;                                                                                               \
      PUT(c, e, v / sc, zc, sgn);                                                                                      \
    }                                                                                                                  \
  }                                                                                                                    \
  GLOW_KERNEL(qlinear_add_##SUF) {                                                                                     \
    uint8_t *c = t[0];                                                                                                 \
    const uint8_t *a = t[1], *b = t[2];                                                                                \
    const glow_abi_ew *ap = (const glow_abi_ew *)p;                                                                    \
    int sgn = (int)*GLOW_ABI_EW_END(ap, 2);                                                                            \
    float sa = *(const float *)t[3], sb = *(const float *)t[5], sc = *(const float *)t[7];                             \
    int32_t za = ZERO(t[4], 0, sgn), zb = ZERO(t[6], 0, sgn), zc = ZERO(t[8], 0, sgn);                                 \
    GLOW_EW_ROWS(2, ap->r, ap->dims, GLOW_ABI_EW_STRIDES(ap),                                                          \
                 glow_q_add_row_##SUF(c + W * i, a + W * at[0], b + W * at[1], len, inc[0], inc[1], sa, za, sb, zb, sc, \
                                      zc, sgn););                                                                      \
  }

QLINEAR_ADD(q8, 1, glow_q_get, glow_q_zero, glow_q_put)
QLINEAR_ADD(q16, 2, glow_q16_get, glow_q16_zero, glow_q16_put)

/* QLinearMul (compiler/ops/quant-linear.c): the exact product of the inputs
 * less their zero points, times m = (sa * sb) / sc, plus zc, in float32 (two
 * statements: not fused), then rounded and saturated. */
static inline void glow_q_mul_row(uint8_t *restrict c, const uint8_t *restrict a, const uint8_t *restrict b,
                                  int64_t len, int64_t ia, int64_t ib, int32_t za, int32_t zb, float m, float zc,
                                  int sgn) {
  for (int64_t e = 0; e < len; e++) {
    int32_t prod = (glow_q_get(a, e * ia, sgn) - za) * (glow_q_get(b, e * ib, sgn) - zb);
    float v = (float)prod * m;
    v = v + zc;
    c[e] = glow_q_saturate(v, 0, sgn);
  }
}

/* t and p: as qlinear_add_q8's. */
GLOW_KERNEL(qlinear_mul_q8) {
  uint8_t *c = t[0];
  const uint8_t *a = t[1], *b = t[2];
  const glow_abi_ew *ap = (const glow_abi_ew *)p;
  int sgn = (int)*GLOW_ABI_EW_END(ap, 2);
  float m = *(const float *)t[3] * *(const float *)t[5] / *(const float *)t[7], zc = (float)glow_q_zero(t[8], 0, sgn);
  int32_t za = glow_q_zero(t[4], 0, sgn), zb = glow_q_zero(t[6], 0, sgn);
  GLOW_EW_ROWS(2, ap->r, ap->dims, GLOW_ABI_EW_STRIDES(ap),
               glow_q_mul_row(c + i, a + at[0], b + at[1], len, inc[0], inc[1], za, zb, m, zc, sgn););
}

/* QLinearGlobalAveragePool: y = saturate(round((sum(x) - x_zp * size) * m) + y_zp),
 * m = x_scale / (y_scale * size) in float32; the sum in int32 (q8) or int64 (q16).
 * t: Y, X, x_scale, x_zp, y_scale, y_zp (zero points may be NULL); p: glow_abi_qgap */
#define QLINEAR_GAP(SUF, W, ACC, GET, ZERO, PUT)                                                                       \
  GLOW_KERNEL(qlinear_global_avgpool_##SUF) {                                                                          \
    uint8_t *y = t[0];                                                                                                 \
    const uint8_t *x = t[1];                                                                                           \
    const glow_abi_qgap *ap = (const glow_abi_qgap *)p;                                                                \
    int64_t planes = ap->planes, size = ap->size;                                                                      \
    int sgn = (int)ap->sign;                                                                                           \
    int32_t zx = ZERO(t[3], 0, sgn), zy = ZERO(t[5], 0, sgn);                                                          \
    float m = *(const float *)t[2] / (*(const float *)t[4] * (float)size);                                             \
    for (int64_t c = 0; c < planes; c++, x += W * size) {                                                              \
      ACC acc = -(ACC)zx * (ACC)size;                                                                                  \
      for (int64_t i = 0; i < size; i++)                                                                               \
        acc += GET(x, i, sgn);                                                                                         \
      PUT(y, c, (float)acc * m, zy, sgn);                                                                              \
    }                                                                                                                  \
  }

QLINEAR_GAP(q8, 1, int32_t, glow_q_get, glow_q_zero, glow_q_put)
QLINEAR_GAP(q16, 2, int64_t, glow_q16_get, glow_q16_zero, glow_q16_put)

/* QLinearConcat (compiler/ops/quant-concat.c): each part requantized to Y's
 * parameters, y = saturate(round((x_scale * (x - x_zp)) / y_scale) + y_zp)
 * (what ONNX Runtime's 256-entry tables hold; computed, the rows vectorize),
 * or copied where its parameters are Y's (the same bytes).
 * t: Y, Y_scale, Y_zp, then X, X_scale, X_zp per part (zero points may be NULL);
 * p: glow_abi_concat, then the int8 flag (at len[k]) */
static inline void glow_q_requant_row(uint8_t *restrict y, const uint8_t *restrict x, int64_t len, float xs,
                                      int32_t zx, float ys, int32_t zy, int sgn) {
  for (int64_t e = 0; e < len; e++) {
    float v = xs * (float)(glow_q_get(x, e, sgn) - zx);
    y[e] = glow_q_saturate(v / ys, zy, sgn);
  }
}

GLOW_KERNEL(qlinear_concat_q8) {
  uint8_t *y = t[0];
  const glow_abi_concat *ap = (const glow_abi_concat *)p;
  int64_t k = ap->k, outer = ap->outer, row = 0, at = 0;
  const int64_t *len = ap->len;
  int sgn = (int)len[k];
  float ys = *(const float *)t[1];
  int32_t zy = glow_q_zero(t[2], 0, sgn);
  for (int64_t j = 0; j < k; j++)
    row += len[j];
  for (int64_t j = 0; j < k; at += len[j], j++) {
    const uint8_t *x = t[3 + 3 * j];
    float xs = *(const float *)t[4 + 3 * j];
    int32_t zx = glow_q_zero(t[5 + 3 * j], 0, sgn);
    for (int64_t a = 0; a < outer; a++)
      if (xs == ys && zx == zy)
        for (int64_t e = 0; e < len[j]; e++)
          y[a * row + at + e] = x[a * len[j] + e];
      else
        glow_q_requant_row(y + a * row + at, x + a * len[j], len[j], xs, zx, ys, zy, sgn);
  }
}

/* IntLookupTable: y[i] = table[x[i]], x's bytes as indices, 64 at a time where the
 * target can (glow_q_lookup64: one byte at a time took 28% of efficientnet_b0's int8
 * run, its SiLU). t: Y, X, Table (256 bytes); p: glow_abi_count */
GLOW_KERNEL(int_lookup) {
  uint8_t *y = t[0];
  const uint8_t *x = t[1], *tab = t[2];
  const glow_abi_count *ap = (const glow_abi_count *)p;
  int64_t i = 0;
  while (i + 64 <= ap->n && glow_q_lookup64(y + i, x + i, tab))
    i += 64;
  for (; i < ap->n; i++)
    y[i] = tab[x[i]];
}
