/* TFLite's QUANTIZE and DEQUANTIZE, what the int8 importers share (scales and
 * zero points as constants, per-channel weights, int32 biases checked as
 * Glow's -tflite-bias-scale-check-* do, fused activations as clamps in the
 * quantized domain, uint8 as int8) and glow_tfl_ops_int8, the table of the
 * importers of operators on quantized tensors (tflite-qnn.c, tflite-qmath.c,
 * tflite-qisland.c).
 * Quantized tensors stay int8 from end to end: a float island (dequantize, the
 * float op, quantize) is made only for the operators glowc has no int8 form of
 * (Softmax, MEAN over other axes than H and W, and those the table sends to
 * tflite-qisland.c). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importer/tflite.h"

enum { CODE_DEQUANTIZE = 6, CODE_QUANTIZE = 114 };

static int q8(glow_dtype dt) { return dt == GLOW_DT_I8 || dt == GLOW_DT_U8; }

int glow_tfl_is_q(const glow_tfl_tensor *t) { return t && t->nq && (q8(t->dt) || t->dt == GLOW_DT_I16); }

static void qrange(glow_dtype dt, int64_t *lo, int64_t *hi) {
  *lo = dt == GLOW_DT_I32 ? INT32_MIN : dt == GLOW_DT_I16 ? -32768 : dt == GLOW_DT_I8 ? -128 : 0;
  *hi = dt == GLOW_DT_I32 ? INT32_MAX : dt == GLOW_DT_I16 ? 32767 : dt == GLOW_DT_I8 ? 127 : 255;
}

/* A zero point as one element of t's dtype at out (glow_dtype_size bytes); -1 after an
 * error when it lies outside that dtype. */
static int zero_bytes(glow_tfl *c, const glow_tfl_op *op, const glow_tfl_tensor *t, int64_t z, void *out) {
  int64_t lo, hi;
  qrange(t->dt, &lo, &hi);
  if (z < lo || z > hi)
    return glow_tfl_err(c, op, "tensor '%s' has zero point %lld, outside %s's range [%lld, %lld]: the model's "
                        "quantization is broken", t->name, (long long)z, glow_dtype_name(t->dt), (long long)lo,
                        (long long)hi);
  glow_elem_seti(t->dt, out, 0, z);
  return 0;
}

int glow_tfl_qparams(glow_tfl *c, const glow_tfl_op *op, int ti, int *scale, int *zero) {
  glow_tfl_tensor *t = &c->t[ti];
  if (!glow_tfl_is_q(t))
    return glow_tfl_err(c, op, "tensor '%s' (%s) is not quantized; this int8 operator needs a scale and zero point "
                        "for each of its tensors", t->name, glow_dtype_name(t->dt));
  if (t->nq != 1)
    return glow_tfl_err(c, op, "tensor '%s' has %d scales (one per index of dimension %d); glowc takes one scale "
                        "for it", t->name, t->nq, t->qdim);
  if (t->qval[0] < 0) {
    int64_t z[1];
    if (zero_bytes(c, op, t, t->zero[0], z))
      return -1;
    glow_strbuf b = {0};
    glow_sb_printf(&b, "%s.scale", t->name);
    t->qval[0] = glow_tfl_const(c, op, b.s, GLOW_DT_F32, 0, NULL, &t->scale[0]);
    b.len = 0;
    glow_sb_printf(&b, "%s.zero_point", t->name);
    t->qval[1] = glow_tfl_const(c, op, b.s, t->dt, 0, NULL, z);
    glow_sb_free(&b);
  }
  *scale = t->qval[0];
  *zero = t->qval[1];
  return 0;
}

int glow_tfl_qweights(glow_tfl *c, const glow_tfl_op *op, int k, int qdim, int64_t n, int *scale, int *zero) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
  if (!t || t->nq <= 1)
    return glow_tfl_qparams(c, op, op->in[k], scale, zero);
  if (!q8(t->dt) || t->qdim != qdim || t->nq != n)
    return glow_tfl_err(c, op, "the weights '%s' are %s with %d scales along dimension %d; glowc takes int8 or "
                        "uint8 weights with one scale, or %lld along dimension %d", t->name, glow_dtype_name(t->dt),
                        t->nq, t->qdim, (long long)n, qdim);
  int8_t *z = glow_xmalloc((size_t)n);
  int rc = 0;
  for (int64_t i = 0; i < n && !rc; i++)
    rc = zero_bytes(c, op, t, t->zero[i], &z[i]);
  if (!rc) {
    *scale = glow_tfl_const(c, op, "w_scale", GLOW_DT_F32, 1, &n, t->scale);
    *zero = glow_tfl_const(c, op, "w_zero_point", t->dt, 1, &n, z);
  }
  free(z);
  return rc;
}

/* Glow's check: the bias scale is input scale x weight scale within bias_scale_max_error
 * (relative), else an error, or with bias_scale_no_error a warning and the bias requantized. */
int glow_tfl_qbias(glow_tfl *c, const glow_tfl_op *op, int k, int w, int64_t n, int *bias) {
  const glow_tfl_tensor *b = glow_tfl_tensor_in(c, op, k), *x = glow_tfl_tensor_in(c, op, 0),
                        *wt = glow_tfl_tensor_in(c, op, w);
  *bias = -1;
  if (!b)
    return 0;
  if (b->dt != GLOW_DT_I32 || !b->data || b->rank != 1 || b->dims[0] != n)
    return glow_tfl_err(c, op, "has bias '%s' of %s; glowc takes a constant int32 vector of %lld values for an int8 "
                        "operator", b->name, glow_dtype_name(b->dt), (long long)n);
  double max_err = c->o->tflite.bias_scale_max_error > 0 ? c->o->tflite.bias_scale_max_error : 1e-6, worst = 0;
  int64_t off = 0, at = 0;
  for (int64_t i = 0; i < n && b->nq; i++) {
    float want = x->scale[0] * wt->scale[wt->nq > 1 ? i : 0], got = b->scale[b->nq > 1 ? i : 0];
    double err = fabs((double)want - (double)got) / (double)want;
    if (b->zero[b->nq > 1 ? i : 0])
      return glow_tfl_err(c, op, "has bias '%s' with zero point %lld; TFLite's int32 biases have zero point 0",
                          b->name, (long long)b->zero[b->nq > 1 ? i : 0]);
    if (got != want && err >= max_err) { /* within it, as Glow: the same integers at the exact scale */
      at = off++ ? at : i;
      worst = err > worst ? err : worst;
    }
  }
  if (off && !c->o->tflite.bias_scale_no_error)
    return glow_tfl_err(c, op, "has bias '%s' whose scale is not input scale x weight scale in %lld of %lld channels "
                        "(the first, %lld: %g, not %g); relative errors up to %.3g, over the %g allowed "
                        "(-tflite-bias-scale-check-max-error); -tflite-bias-scale-check-throw-error=false requantizes "
                        "the bias instead", b->name, (long long)off, (long long)n, (long long)at,
                        (double)b->scale[b->nq > 1 ? at : 0], (double)(x->scale[0] * wt->scale[wt->nq > 1 ? at : 0]),
                        worst, max_err);
  int32_t *v = glow_xmalloc(sizeof(int32_t) * (size_t)n);
  memcpy(v, b->data, sizeof(int32_t) * (size_t)n);
  for (int64_t i = 0; i < n && off; i++) {
    double r = nearbyint((double)v[i] * (double)b->scale[b->nq > 1 ? i : 0] /
                         ((double)x->scale[0] * (double)wt->scale[wt->nq > 1 ? i : 0]));
    v[i] = (int32_t)(r > 2147483647.0 ? 2147483647.0 : r < -2147483648.0 ? -2147483648.0 : r);
  }
  if (off) {
    glow_strbuf where = {0};
    glow_sb_printf(&where, "%s: operator %d (%s)", c->path, op->index, op->type);
    glow_warning(where.s, "bias '%s': its scale is not input scale x weight scale in %lld of %lld channels (relative "
                 "errors up to %.3g); requantized to it", b->name, (long long)off, (long long)n, worst);
    glow_sb_free(&where);
  }
  *bias = glow_tfl_const(c, op, "bias", GLOW_DT_I32, 1, &n, v);
  free(v);
  return 0;
}

/* TFLite's CalculateActivationRangeQuantized: the bounds of the activation in
 * output k's quantized domain, f quantized as zp + round(f / scale) (half away from 0). */
static int act_range(glow_tfl *c, const glow_tfl_op *op, int64_t act, int k, int64_t *lo, int64_t *hi) {
  const glow_tfl_tensor *y = glow_tfl_tensor_out(c, op, k);
  qrange(y->dt, lo, hi);
  if (act == GLOW_TFL_ACT_NONE)
    return 0;
  if (!glow_tfl_is_q(y) || y->nq != 1)
    return glow_tfl_err(c, op, "output '%s' is not quantized per tensor; glowc needs one scale to clamp it", y->name);
  float s = y->scale[0];
  int64_t z = y->zero[0];
  /* clamped before the conversion: a tiny scale puts a bound far past every integer type */
#define QUANT(f) (z + (int64_t)fmaxf(-1e12f, fminf(1e12f, roundf((float)(f) / s))))
  switch (act) {
  case GLOW_TFL_ACT_RELU: *lo = QUANT(0) > *lo ? QUANT(0) : *lo; break;
  case GLOW_TFL_ACT_RELU6:
    *lo = QUANT(0) > *lo ? QUANT(0) : *lo;
    *hi = QUANT(6) < *hi ? QUANT(6) : *hi;
    break;
  case GLOW_TFL_ACT_RELU_N1_TO_1:
    *lo = QUANT(-1) > *lo ? QUANT(-1) : *lo;
    *hi = QUANT(1) < *hi ? QUANT(1) : *hi;
    break;
  default:
    return glow_tfl_err(c, op, "has fused activation %lld (%s) on a quantized output, which glowc does not support",
                        (long long)act, act == GLOW_TFL_ACT_TANH ? "TANH" : act == GLOW_TFL_ACT_SIGN_BIT ? "SIGN_BIT" :
                        "unknown");
  }
#undef QUANT
  return 0;
}

/* 1 if the activation's bounds are inside the output type's, 0 if not, -1 after an error. */
static int needs_clamp(glow_tfl *c, const glow_tfl_op *op, int64_t act, int k, int64_t *lo, int64_t *hi) {
  int64_t tlo, thi;
  if (act_range(c, op, act, k, lo, hi))
    return -1;
  qrange(glow_tfl_tensor_out(c, op, k)->dt, &tlo, &thi);
  return *lo > tlo || *hi < thi;
}

int glow_tfl_qout_pre(glow_tfl *c, const glow_tfl_op *op, int k, int layout, int64_t act) {
  int64_t lo, hi;
  int clamp = needs_clamp(c, op, act, k, &lo, &hi);
  return clamp < 0 ? -1 : clamp ? glow_tfl_tmp(c, op, "pre-activation") : glow_tfl_out(c, op, k, layout);
}

int glow_tfl_qactivation(glow_tfl *c, const glow_tfl_op *op, int pre, int64_t act, int k, int layout) {
  int64_t lo, hi;
  int clamp = needs_clamp(c, op, act, k, &lo, &hi);
  if (clamp <= 0)
    return clamp;
  glow_dtype dt = glow_tfl_tensor_out(c, op, k)->dt;
  char b[2][2];
  glow_elem_seti(dt, b[0], 0, lo);
  glow_elem_seti(dt, b[1], 0, hi);
  int in[3] = {pre, glow_tfl_const(c, op, "min", dt, 0, NULL, b[0]), glow_tfl_const(c, op, "max", dt, 0, NULL, b[1])};
  int y = glow_tfl_out(c, op, k, layout);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_CLIP, NULL, 3, in, 1, &y));
}

int glow_tfl_uint8_to_int8(glow_tfl *c) {
  if (c->o->tflite.keep_uint8)
    return 0;
  for (int i = 0; i < c->ntensors; i++) {
    glow_tfl_tensor *t = &c->t[i];
    if (t->dt != GLOW_DT_U8 || !t->nq)
      continue;
    t->dt = GLOW_DT_I8;
    t->type = GLOW_TFL_INT8;
    for (int k = 0; k < t->nq; k++)
      t->zero[k] -= 128;
    if (!t->data)
      continue;
    /* the int8 bytes live in the tensor's constant value, which is its NHWC value */
    glow_value v = {.dt = GLOW_DT_I8, .rank = t->rank};
    memcpy(v.dims, t->dims, sizeof v.dims);
    c->const_bytes += t->data_size;
    if (c->const_bytes > GLOW_TFL_MAX_CONST_BYTES) {
      glow_error(c->path, "tensor '%s': the model's constants come to over %llu GiB: tensors share buffers past "
                 "what any real model holds", t->name, (unsigned long long)(GLOW_TFL_MAX_CONST_BYTES >> 30));
      return -1;
    }
    int8_t *d = glow_xmalloc(t->data_size ? t->data_size : 1);
    for (size_t k = 0; k < t->data_size; k++)
      d[k] = (int8_t)(t->data[k] - 128);
    int id = glow_value_add(c->g, t->name);
    glow_str_table_put(&c->names, c->g->vals[id].name, id);
    glow_value_make_const(c->g, id, GLOW_DT_I8, t->rank, t->dims, d);
    free(d);
    t->data = c->g->vals[id].data;
    t->val[GLOW_TFL_NHWC] = id;
  }
  return 0;
}

/* ---- QUANTIZE and DEQUANTIZE ---- */

/* y = QuantizeLinear or DequantizeLinear of x with tensor ti's parameters (per channel
 * along axis `axis` of the value's layout when it has several). */
static int qlinear(glow_tfl *c, const glow_tfl_op *op, glow_op kind, int x, int ti, int axis, int y, const char *what) {
  glow_tfl_tensor *t = &c->t[ti];
  int in[3];
  if (t->nq > 1 || (t->dt == GLOW_DT_I32 && t->nq == 1)) {
    /* per channel, or an int32 tensor (which glow_tfl_qparams, made for int8 operators, refuses) */
    int64_t n = t->nq, size = (int64_t)glow_dtype_size(t->dt);
    char *z = glow_xmalloc((size_t)(n * size));
    int rc = 0;
    for (int64_t i = 0; i < n && !rc; i++)
      rc = zero_bytes(c, op, t, t->zero[i], z + i * size);
    int rank = t->nq > 1;
    in[1] = rc ? -1 : glow_tfl_const(c, op, "scale", GLOW_DT_F32, rank, &n, t->scale);
    in[2] = rc ? -1 : glow_tfl_const(c, op, "zero_point", t->dt, rank, &n, z);
    free(z);
    if (rc)
      return -1;
  } else if (glow_tfl_qparams(c, op, ti, &in[1], &in[2])) {
    return -1;
  }
  in[0] = x;
  int node = glow_tfl_node(c, op, kind, what, 3, in, 1, &y);
  if (t->nq > 1)
    glow_tfl_attr_int(c, node, "axis", axis);
  return glow_tfl_infer(c, node);
}

/* A float16 constant (weights of a float16-quantized model) becomes a float constant:
 * the output tensor's value and bytes, as if the model held it in float. */
static int dequantize_f16(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  glow_tfl_tensor *y = &c->t[op->out[0]];
  int64_t n = (int64_t)(x->data_size / 2);
  float *f = glow_xmalloc(sizeof(float) * (size_t)(n ? n : 1));
  for (int64_t i = 0; i < n; i++)
    f[i] = (float)glow_elem_get(GLOW_DT_F16, x->data, i);
  int id = glow_tfl_out(c, op, 0, GLOW_TFL_NHWC);
  c->const_bytes += (uint64_t)n * 4;
  glow_value_make_const(c->g, id, GLOW_DT_F32, x->rank, x->dims, f);
  free(f);
  y->data = c->g->vals[id].data;
  y->data_size = (size_t)n * 4;
  if (c->const_bytes > GLOW_TFL_MAX_CONST_BYTES)
    return glow_tfl_err(c, op, "its constants bring the model's to over %llu GiB: tensors share buffers past what "
                        "any real model holds", (unsigned long long)(GLOW_TFL_MAX_CONST_BYTES >> 30));
  return 0;
}

static int emit_dequantize(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  if (x->dt == GLOW_DT_F16 && x->data)
    return dequantize_f16(c, op);
  int layout = glow_tfl_home(c, op, 0);
  int in = glow_tfl_in(c, op, 0, layout);
  if (in < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, layout);
  if (x->dt == GLOW_DT_F16) {
    int node = glow_tfl_node(c, op, GLOW_OP_CAST, NULL, 1, &in, 1, &y);
    glow_tfl_attr_int(c, node, "to", 1); /* FLOAT */
    return glow_tfl_infer(c, node);
  }
  if (!glow_tfl_is_q(x) && x->dt != GLOW_DT_I32)
    return glow_tfl_err(c, op, "has input '%s' of %s without a scale; DEQUANTIZE takes a quantized int8, uint8, int16 "
                        "or int32 tensor, or a float16 one", x->name, glow_dtype_name(x->dt));
  return qlinear(c, op, GLOW_OP_DEQUANTIZE_LINEAR, in, op->in[0], glow_tfl_axis(x->qdim, x->rank, layout), y, NULL);
}

static int emit_quantize(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *y = glow_tfl_tensor_out(c, op, 0);
  if (!glow_tfl_is_q(y))
    return glow_tfl_err(c, op, "has output '%s' of %s without a scale; QUANTIZE makes an int8, uint8 or int16 tensor",
                        y->name, glow_dtype_name(y->dt));
  if (glow_tfl_is_q(x) && q8(x->dt) && q8(y->dt) && x->nq == 1 && y->nq == 1)
    return glow_tfl_q_unary(c, op); /* requantization: a table of the 256 values */
  int layout = glow_tfl_home(c, op, 0);
  int in = glow_tfl_in(c, op, 0, layout);
  if (in < 0)
    return -1;
  if (glow_tfl_is_q(x)) { /* int16 in or out: through float */
    int f = glow_tfl_tmp(c, op, "dequantized");
    if (qlinear(c, op, GLOW_OP_DEQUANTIZE_LINEAR, in, op->in[0], glow_tfl_axis(x->qdim, x->rank, layout), f,
                "dequantize"))
      return -1;
    in = f;
  } else if (x->dt != GLOW_DT_F32) {
    return glow_tfl_err(c, op, "has input '%s' of %s; QUANTIZE takes float or quantized tensors", x->name,
                        glow_dtype_name(x->dt));
  }
  return qlinear(c, op, GLOW_OP_QUANTIZE_LINEAR, in, op->out[0], glow_tfl_axis(y->qdim, y->rank, layout),
                 glow_tfl_out(c, op, 0, layout), NULL);
}

const glow_tfl_op_info glow_tfl_ops_quant[] = {
    {.code = CODE_DEQUANTIZE, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_dequantize},
    {.code = CODE_QUANTIZE, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_quantize},
    {.code = -1},
};

/* Operators on quantized tensors; RESHAPE, SQUEEZE, TRANSPOSE and the other data
 * movements are the float importers (any element type; TFLite keeps the parameters). */
const glow_tfl_op_info glow_tfl_ops_int8[] = {
    {.code = 0, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_add},             /* ADD */
    {.code = 1, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_avgpool},         /* AVERAGE_POOL_2D */
    {.code = 2, .min_in = 1, .max_in = 1024, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_concat},       /* CONCATENATION */
    {.code = 3, .min_in = 2, .max_in = 3, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_conv},            /* CONV_2D */
    {.code = 4, .min_in = 2, .max_in = 3, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_depthwise},       /* DEPTHWISE_CONV_2D */
    {.code = 9, .min_in = 2, .max_in = 3, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_fc},              /* FULLY_CONNECTED */
    {.code = 11, .min_in = 1, .max_in = 8, .min_out = 1, .max_out = 8, .emit = glow_tfl_q_island},         /* L2_NORMALIZATION */
    {.code = 13, .min_in = 1, .max_in = 8, .min_out = 1, .max_out = 8, .emit = glow_tfl_q_island},         /* LOCAL_RESPONSE_NORMALIZATION */
    {.code = 14, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* LOGISTIC */
    {.code = 17, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_maxpool},        /* MAX_POOL_2D */
    {.code = 18, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_mul},            /* MUL */
    {.code = 19, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* RELU */
    {.code = 20, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* RELU_N1_TO_1 */
    {.code = 21, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* RELU6 */
    {.code = 25, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_island},         /* SOFTMAX */
    {.code = 28, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* TANH */
    {.code = 34, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_pad},            /* PAD */
    {.code = 40, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_mean},           /* MEAN */
    {.code = 41, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_sub},            /* SUB */
    {.code = 42, .min_in = 1, .max_in = 8, .min_out = 1, .max_out = 8, .emit = glow_tfl_q_island},         /* DIV */
    {.code = 47, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* EXP */
    {.code = 50, .min_in = 1, .max_in = 8, .min_out = 1, .max_out = 8, .emit = glow_tfl_q_island},         /* LOG_SOFTMAX */
    {.code = 54, .min_in = 1, .max_in = 8, .min_out = 1, .max_out = 8, .emit = glow_tfl_q_island},         /* PRELU */
    {.code = 59, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* NEG */
    {.code = 60, .min_in = 2, .max_in = 3, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_pad},            /* PADV2 */
    {.code = 73, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* LOG */
    {.code = 74, .min_in = 1, .max_in = 8, .min_out = 1, .max_out = 8, .emit = glow_tfl_q_island},         /* SUM */
    {.code = 75, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* SQRT */
    {.code = 76, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* RSQRT */
    {.code = 81, .min_in = 1, .max_in = 8, .min_out = 1, .max_out = 8, .emit = glow_tfl_q_island},         /* REDUCE_PROD */
    {.code = 92, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* SQUARE */
    {.code = 98, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},          /* LEAKY_RELU */
    {.code = 99, .min_in = 1, .max_in = 8, .min_out = 1, .max_out = 8, .emit = glow_tfl_q_island},         /* SQUARED_DIFFERENCE */
    {.code = 101, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},         /* ABS */
    {.code = 111, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},         /* ELU */
    {.code = 117, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},         /* HARD_SWISH */
    {.code = 126, .min_in = 1, .max_in = 8, .min_out = 1, .max_out = 8, .emit = glow_tfl_q_island},        /* BATCH_MATMUL */
    {.code = 150, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},         /* GELU */
    {.code = 152, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = glow_tfl_q_unary},         /* RELU_0_TO_1 */
    {.code = -1},
};
