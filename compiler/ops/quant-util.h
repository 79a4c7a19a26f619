/* Shared by the quantized ops (quant-linear.c, QLinearConv in nn-conv.c,
 * QLinearMatMul in nn-gemm.c): their reference arithmetic, written to give
 * the kernels' results bit for bit (targets/common/kernels/quant.h).
 *
 * Requantization (QLinearConv, QLinearMatMul) uses a float multiplier, as ONNX
 * Runtime does: m = (x_scale * w_scale) / y_scale in float32, then
 *   y = saturate(round_half_even((float)acc * m) + y_zero_point)
 * with acc the exact int32 sum (plus the int32 bias). Clamping to
 * [lo - zp, hi - zp] before rounding gives the same result (the bounds are
 * integers) and keeps huge or NaN values (NaN saturates to lo) out of the
 * float-to-int conversion. */
#ifndef GLOW_QUANT_UTIL_H
#define GLOW_QUANT_UTIL_H

#include <math.h>

#include "ops/nn-util.h"

static inline int glow_q_is_8bit(glow_dtype dt) { return dt == GLOW_DT_U8 || dt == GLOW_DT_I8; }

/* int16: what Int16 quantization (-quantization-precision=Int16) makes of the
 * QLinear ops, glowc's extension (ONNX's take 8 bits); never mixed with 8 bits
 * in one op, and its sums are int64 (int16 products reach 2^30). */
static inline int glow_q_is_quant(glow_dtype dt) { return glow_q_is_8bit(dt) || dt == GLOW_DT_I16; }

/* saturate(round_half_even(v) + zp) into [lo, hi]. */
static inline int32_t glow_q_saturate(float v, int32_t zp, int32_t lo, int32_t hi) {
  float fl = (float)(lo - zp), fh = (float)(hi - zp);
  v = v > fl ? v : fl;
  v = v < fh ? v : fh;
  return (int32_t)nearbyintf(v) + zp;
}

/* The value range of an int8, uint8 or int16 dtype. */
static inline void glow_q_range(glow_dtype dt, int32_t *lo, int32_t *hi) {
  *lo = dt == GLOW_DT_I16 ? -32768 : dt == GLOW_DT_I8 ? -128 : 0;
  *hi = dt == GLOW_DT_I16 ? 32767 : dt == GLOW_DT_I8 ? 127 : 255;
}

/* One scale or zero point of a quantization parameter: element i, or the only
 * one when the parameter holds a single value. */
static inline float glow_q_scale(const glow_value *s, const void *data, int64_t i) {
  return ((const float *)data)[glow_value_numel(s) > 1 ? i : 0];
}
static inline int32_t glow_q_zero(const glow_value *z, const void *data, int64_t i) {
  return z ? (int32_t)glow_elem_geti(z->dt, data, glow_value_numel(z) > 1 ? i : 0) : 0;
}

/* Kernel params' signedness flags (kernel-abi.h): the input (x, A), the weights
 * (w, B), the output. */
static inline int64_t glow_q_sign_flags(glow_dtype x, glow_dtype w, glow_dtype y) {
  return (x != GLOW_DT_U8 ? GLOW_Q_X_SIGNED : 0) | (w != GLOW_DT_U8 ? GLOW_Q_W_SIGNED : 0) |
         (y != GLOW_DT_U8 ? GLOW_Q_Y_SIGNED : 0);
}

/* quant-linear.c */
/* Checks that input `i` of n, if present, is a scale (float, `f32`) or zero
 * point (dtype `zdt`, UNDEF for uint8 or int8) of `count` elements or one;
 * `what` names it. Returns 0, or -1 after glow_node_error(). */
int glow_q_check_param(const glow_graph *g, const glow_node *n, int i, const char *what, int f32, glow_dtype zdt,
                       int64_t count);

/* quant-concat.c */
/* QLinearConcat's parts at most: a kernel call carries 64 tensors, Y, its two
 * parameters and three per part. */
#define GLOW_Q_CONCAT_MAX_PARTS 20

/* quant-pool.c */
/* Why QLinearAveragePool refuses the attributes of n (a QLinearAveragePool or
 * AveragePool node) with window w, as ONNX Runtime would run them
 * differently, or NULL when it takes them. The message may be written to buf. */
const char *glow_q_avgpool_refusal(const glow_node *n, const glow_nn_win *w, char *buf, size_t cap);

#endif
