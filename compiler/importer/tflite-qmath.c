/* TFLite's int8 elementwise operators: ADD and MUL as com.microsoft's
 * QLinearAdd and QLinearMul, SUB as QLinearAdd with B's scale negated (exact:
 * QLinearAdd dequantizes each input with its scale), CONCATENATION as Concat
 * (QLinearConcat where the inputs' parameters differ from the output's), PAD
 * with the zero point, the unary operators as a table of their 256 results
 * (Cast to int32, Gather; an int8 index reads the table from its end when
 * negative) computed in float as TFLite's int8 kernels fill theirs, or as a
 * clamp when the output is the input's range clipped. Written otherwise than
 * TFLite's converter writes them, they run as float islands. */
#include <math.h>
#include <stdlib.h>

#include "importer/tflite.h"

enum { ARITH_ACT = 0, CONCAT_AXIS = 0, CONCAT_ACT = 1, LEAKY_ALPHA = 0, GELU_APPROXIMATE = 0 };
enum { CODE_LOGISTIC = 14, CODE_RELU = 19, CODE_RELU_N1_TO_1 = 20, CODE_RELU6 = 21, CODE_TANH = 28, CODE_EXP = 47,
       CODE_NEG = 59, CODE_LOG = 73, CODE_SQRT = 75, CODE_RSQRT = 76, CODE_SQUARE = 92, CODE_LEAKY_RELU = 98,
       CODE_ABS = 101, CODE_ELU = 111, CODE_QUANTIZE = 114, CODE_HARD_SWISH = 117, CODE_GELU = 150,
       CODE_RELU_0_TO_1 = 152 };

static int qbinary(glow_tfl *c, const glow_tfl_op *op, glow_op kind, int negate_b) {
  int64_t act = glow_fb_int(&op->opts, ARITH_ACT, 1, 0);
  int layout = glow_tfl_follow(c, op);
  int in[8] = {glow_tfl_in_bcast(c, op, 0, layout), -1, -1, glow_tfl_in_bcast(c, op, 1, layout)};
  if (in[0] < 0 || in[3] < 0 || glow_tfl_qparams(c, op, op->in[0], &in[1], &in[2]) ||
      glow_tfl_qparams(c, op, op->in[1], &in[4], &in[5]) || glow_tfl_qparams(c, op, op->out[0], &in[6], &in[7]))
    return -1;
  if (negate_b) {
    float s = -c->t[op->in[1]].scale[0];
    in[4] = glow_tfl_const(c, op, "negated_b_scale", GLOW_DT_F32, 0, NULL, &s);
  }
  int y = glow_tfl_qout_pre(c, op, 0, layout, act);
  if (y < 0)
    return -1;
  int node = glow_tfl_node(c, op, kind, "op", 8, in, 1, &y);
  return glow_tfl_infer(c, node) || glow_tfl_qactivation(c, op, y, act, 0, layout) ? -1 : 0;
}

int glow_tfl_q_add(glow_tfl *c, const glow_tfl_op *op) { return qbinary(c, op, GLOW_OP_QLINEAR_ADD, 0); }
int glow_tfl_q_sub(glow_tfl *c, const glow_tfl_op *op) { return qbinary(c, op, GLOW_OP_QLINEAR_ADD, 1); }
int glow_tfl_q_mul(glow_tfl *c, const glow_tfl_op *op) { return qbinary(c, op, GLOW_OP_QLINEAR_MUL, 0); }

static int same_params(const glow_tfl_tensor *a, const glow_tfl_tensor *b) {
  return a->dt == b->dt && a->nq == 1 && b->nq == 1 && a->scale[0] == b->scale[0] && a->zero[0] == b->zero[0];
}

int glow_tfl_q_concat(glow_tfl *c, const glow_tfl_op *op) {
  int64_t act = glow_fb_int(&op->opts, CONCAT_ACT, 1, 0);
  const glow_tfl_tensor *out = glow_tfl_tensor_out(c, op, 0);
  int layout = glow_tfl_follow(c, op), same = 1;
  int64_t axis = glow_fb_int(&op->opts, CONCAT_AXIS, 4, 0);
  if (axis < -out->rank || axis >= out->rank)
    return glow_tfl_err(c, op, "has axis %lld for tensors of rank %d", (long long)axis, out->rank);
  for (int k = 0; k < op->nin; k++)
    same &= glow_tfl_tensor_in(c, op, k) && same_params(glow_tfl_tensor_in(c, op, k), out);
  if (!same && op->nin > 20) /* more parts than one QLinearConcat takes (its kernel call's tensors) */
    return glow_tfl_q_island(c, op);
  int *in = glow_xmalloc(sizeof(int) * (size_t)(3 * op->nin + 2)), n = same ? 0 : 2;
  int rc = same ? 0 : glow_tfl_qparams(c, op, op->out[0], &in[0], &in[1]);
  for (int k = 0; k < op->nin && !rc; k++) {
    in[n] = glow_tfl_in_bcast(c, op, k, layout);
    rc = in[n++] < 0 || (!same && glow_tfl_qparams(c, op, op->in[k], &in[n], &in[n + 1]));
    n += same ? 0 : 2;
  }
  int y = rc ? -1 : glow_tfl_qout_pre(c, op, 0, layout, act);
  if (y >= 0) {
    int node = glow_tfl_node(c, op, same ? GLOW_OP_CONCAT : GLOW_OP_QLINEAR_CONCAT, "concat", n, in, 1, &y);
    glow_tfl_attr_int(c, node, "axis", glow_tfl_axis((int)axis, out->rank, layout));
    rc = glow_tfl_infer(c, node) || glow_tfl_qactivation(c, op, y, act, 0, layout);
  }
  free(in);
  return rc || y < 0 ? -1 : 0;
}

/* PAD fills with the zero point (0 in real terms), PADV2 with its constant input 2. */
int glow_tfl_q_pad(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *v = glow_tfl_tensor_in(c, op, 2),
                        *out = glow_tfl_tensor_out(c, op, 0);
  int64_t p[2 * GLOW_MAX_RANK], pads[2 * GLOW_MAX_RANK];
  int np = glow_tfl_in_ints(c, op, 1, p, 2 * GLOW_MAX_RANK);
  if (np < 0)
    return -1;
  if (np != 2 * x->rank)
    return glow_tfl_err(c, op, "has %d paddings for an input of rank %d; it takes a begin and an end per axis", np,
                        x->rank);
  if (!same_params(x, out)) /* not as TFLite's converter writes it */
    return glow_tfl_q_island(c, op);
  int layout = glow_tfl_home(c, op, 0);
  for (int d = 0; d < x->rank; d++) {
    pads[glow_tfl_axis(d, x->rank, layout)] = p[2 * d];
    pads[x->rank + glow_tfl_axis(d, x->rank, layout)] = p[2 * d + 1];
  }
  int in[3] = {glow_tfl_in(c, op, 0, layout), glow_tfl_const_ints(c, op, "pads", 2 * x->rank, pads), -1};
  if (v) {
    if (!v->data || v->dt != x->dt || v->data_size != glow_dtype_size(x->dt))
      return glow_tfl_err(c, op, "has a constant_values input '%s' that is not one constant %s value", v->name,
                          glow_dtype_name(x->dt));
    in[2] = glow_tfl_in(c, op, 2, GLOW_TFL_NHWC);
  } else {
    char z[2];
    glow_elem_seti(x->dt, z, 0, x->zero[0]);
    in[2] = glow_tfl_const(c, op, "zero_point", x->dt, 0, NULL, z);
  }
  if (in[0] < 0 || in[2] < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, layout);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_PAD, NULL, 3, in, 1, &y));
}

/* The operator's float function, as TFLite's reference kernels compute it. */
static float unary_f(const glow_tfl_op *op, float x) {
  switch (op->code) {
  case CODE_LOGISTIC: return 1.0f / (1.0f + expf(-x));
  case CODE_TANH: return tanhf(x);
  case CODE_HARD_SWISH: return x * fminf(6.0f, fmaxf(0.0f, x + 3.0f)) / 6.0f;
  case CODE_LEAKY_RELU: return x >= 0.0f ? x : glow_fb_float(&op->opts, LEAKY_ALPHA, 0.0f) * x;
  case CODE_RELU: return fmaxf(0.0f, x);
  case CODE_RELU6: return fminf(6.0f, fmaxf(0.0f, x));
  case CODE_RELU_N1_TO_1: return fminf(1.0f, fmaxf(-1.0f, x));
  case CODE_RELU_0_TO_1: return fminf(1.0f, fmaxf(0.0f, x));
  case CODE_EXP: return expf(x);
  case CODE_LOG: return logf(x);
  case CODE_SQRT: return sqrtf(x);
  case CODE_RSQRT: return 1.0f / sqrtf(x);
  case CODE_ABS: return fabsf(x);
  case CODE_NEG: return -x;
  case CODE_SQUARE: return x * x;
  case CODE_ELU: return x >= 0.0f ? x : expm1f(x);
  case CODE_GELU:
    if (glow_fb_int(&op->opts, GELU_APPROXIMATE, 1, 0))
      return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
    return 0.5f * x * (1.0f + erff(x * 0.70710678f));
  default: return x; /* QUANTIZE: requantization */
  }
}

/* The fused activation an operator of the RELU family is, when it keeps its input's parameters. */
static int64_t as_clamp(const glow_tfl_op *op) {
  switch (op->code) {
  case CODE_RELU: return GLOW_TFL_ACT_RELU;
  case CODE_RELU6: return GLOW_TFL_ACT_RELU6;
  case CODE_RELU_N1_TO_1: return GLOW_TFL_ACT_RELU_N1_TO_1;
  default: return GLOW_TFL_ACT_NONE;
  }
}

int glow_tfl_q_unary(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *y = glow_tfl_tensor_out(c, op, 0);
  if (!glow_tfl_is_q(y) || x->nq != 1 || y->nq != 1 || x->dt == GLOW_DT_I16 || y->dt == GLOW_DT_I16)
    return glow_tfl_err(c, op, "takes %s '%s' to %s '%s'; glowc computes it on int8 or uint8 tensors quantized per "
                        "tensor", glow_dtype_name(x->dt), x->name, glow_dtype_name(y->dt), y->name);
  int layout = glow_tfl_home(c, op, 0);
  int xv = glow_tfl_in(c, op, 0, layout);
  if (xv < 0)
    return -1;
  int64_t act = as_clamp(op);
  if (act != GLOW_TFL_ACT_NONE && same_params(x, y)) {
    int out = glow_tfl_qout_pre(c, op, 0, layout, act);
    if (out < 0)
      return -1;
    if (out == glow_tfl_tensor_out(c, op, 0)->val[layout]) /* saturation is the clamp: a copy */
      return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_IDENTITY, NULL, 1, &xv, 1, &out));
    return glow_tfl_qactivation(c, op, xv, act, 0, layout);
  }
  int8_t table[256];
  float xs = x->scale[0], inv = 1.0f / y->scale[0];
  int lo = y->dt == GLOW_DT_I8 ? -128 : 0, hi = lo + 255;
  for (int v = x->dt == GLOW_DT_I8 ? -128 : 0, n = 0; n < 256; v++, n++) {
    float r = roundf(unary_f(op, xs * (float)(v - x->zero[0])) * inv) + (float)y->zero[0];
    int q = isnan(r) || r < (float)lo ? lo : r > (float)hi ? hi : (int)r; /* NaN: LOG, SQRT of a negative */
    table[v & 255] = (int8_t)(uint8_t)(q & 255);
  }
  int64_t n = 256;
  int idx = glow_tfl_tmp(c, op, "index");
  int node = glow_tfl_node(c, op, GLOW_OP_CAST, "index", 1, &xv, 1, &idx);
  glow_tfl_attr_int(c, node, "to", 6); /* INT32 */
  if (glow_tfl_infer(c, node))
    return -1;
  int in[2] = {glow_tfl_const(c, op, "table", y->dt, 1, &n, table), idx}, out = glow_tfl_out(c, op, 0, layout);
  node = glow_tfl_node(c, op, GLOW_OP_GATHER, NULL, 2, in, 1, &out);
  glow_tfl_attr_int(c, node, "axis", 0);
  return glow_tfl_infer(c, node);
}
