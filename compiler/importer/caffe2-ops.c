/* predict_net ops as graph nodes of ONNX semantics (opset 11): the table of
 * the Caffe2 ops glowc imports, and the ops that map onto one ONNX op or a
 * short chain of them. The window ops (Conv, pooling), FC, SpatialBN and LRN
 * are in caffe2-nn.c; the tensor ops in caffe2-tensor.c. Each emitter reads
 * its inputs (whose shapes are known), checks its arguments, adds its nodes
 * and infers their shapes. */
#include <math.h>
#include <string.h>

#include "importer/caffe2.h"

/* caffe2-nn.c, caffe2-tensor.c */
int glow_c2_emit_conv(glow_c2 *c, const glow_c2_op *op);
int glow_c2_emit_pool(glow_c2 *c, const glow_c2_op *op);
int glow_c2_emit_fc(glow_c2 *c, const glow_c2_op *op);
int glow_c2_emit_spatial_bn(glow_c2 *c, const glow_c2_op *op);
int glow_c2_emit_lrn(glow_c2 *c, const glow_c2_op *op);
int glow_c2_emit_concat(glow_c2 *c, const glow_c2_op *op);
int glow_c2_emit_reshape(glow_c2 *c, const glow_c2_op *op);
int glow_c2_emit_channel_shuffle(glow_c2 *c, const glow_c2_op *op);
int glow_c2_emit_axes(glow_c2 *c, const glow_c2_op *op);

/* The op's inputs, all of them. */
static int inputs(glow_c2 *c, const glow_c2_op *op, int *in) {
  for (size_t k = 0; k < op->def->n_input; k++)
    if ((in[k] = glow_c2_in(c, op, (int)k)) < 0)
      return -1;
  return 0;
}

/* Value v reshaped to dims (trailing 1s for ONNX's broadcasting), named <op>/<what>; -1 after an error. */
static int reshaped(glow_c2 *c, const glow_c2_op *op, const char *what, int v, int rank, const int64_t *dims) {
  int shape = glow_c2_const(c, op, what, GLOW_DT_I64, 1, (int64_t[]){rank}, dims);
  int y = glow_c2_tmp(c, op, what);
  return glow_c2_infer(c, glow_c2_node(c, op, GLOW_OP_RESHAPE, what, 2, (int[]){v, shape}, 1, &y)) ? -1 : y;
}

/* One ONNX op of the same meaning over all inputs, attributes none or ONNX's defaults. */
static int emit_same(glow_c2 *c, const glow_c2_op *op) {
  int in[64];
  if (op->def->n_input > 64 || inputs(c, op, in))
    return -1;
  int y = glow_c2_out(c, op, 0);
  glow_op kind = glow_op_from_onnx(glow_c2_op_find(op->type)->onnx);
  return glow_c2_infer(c, glow_c2_node(c, op, kind, NULL, (int)op->def->n_input, in, 1, &y));
}

/* Sum of two blobs (ResNet's shortcuts) is an Add, which int8 quantization takes; of more, a Sum. */
static int emit_sum(glow_c2 *c, const glow_c2_op *op) {
  if (op->def->n_input != 2)
    return emit_same(c, op);
  int in[2];
  if (inputs(c, op, in))
    return -1;
  int y = glow_c2_out(c, op, 0);
  return glow_c2_infer(c, glow_c2_node(c, op, GLOW_OP_ADD, NULL, 2, in, 1, &y));
}

/* Dropout (is_test=1) is the identity; its mask is not computed. */
static int emit_dropout(glow_c2 *c, const glow_c2_op *op) {
  int64_t is_test;
  if (glow_c2_arg_int(op, "is_test", 0, &is_test))
    return -1;
  if (!is_test)
    return glow_c2_err(op, "is_test=0 drops values at random (training); an inference net sets is_test=1");
  glow_c2_unproduced(c, op, 1);
  return emit_same(c, op);
}

static int emit_leaky_relu(glow_c2 *c, const glow_c2_op *op) {
  double alpha;
  if (glow_c2_arg_float(op, "alpha", 0.01, &alpha) || emit_same(c, op))
    return -1;
  glow_c2_attr_float(c, c->g->nnodes - 1, "alpha", alpha);
  return glow_c2_infer(c, c->g->nnodes - 1);
}

static int emit_softmax(glow_c2 *c, const glow_c2_op *op) {
  int64_t axis;
  if (glow_c2_arg_int(op, "axis", 1, &axis) || emit_same(c, op))
    return -1;
  glow_c2_attr_int(c, c->g->nnodes - 1, "axis", axis); /* opset 11: coerced to 2-D there, as Caffe2 does */
  return glow_c2_infer(c, c->g->nnodes - 1);
}

/* Add, Sub, Mul, Div. broadcast=1 with `axis` lines B up with A's axes from
 * `axis` on (Caffe2's legacy rule); ONNX aligns the last axes, so B gets
 * trailing 1s. Without broadcast the shapes are equal: the same either way. */
static int emit_binary(glow_c2 *c, const glow_c2_op *op) {
  int in[2];
  int64_t broadcast, axis;
  if (inputs(c, op, in) || glow_c2_arg_int(op, "broadcast", 0, &broadcast) || glow_c2_arg_int(op, "axis", -1, &axis))
    return -1;
  const glow_value *a = &c->g->vals[in[0]], *b = &c->g->vals[in[1]];
  if (broadcast && axis != -1) {
    if (axis < 0 || axis + b->rank > a->rank)
      return glow_c2_err(op, "axis %lld does not place B (rank %d) inside A (rank %d)", (long long)axis, b->rank,
                         a->rank);
    int64_t dims[GLOW_MAX_RANK];
    int rank = (int)(a->rank - axis);
    for (int d = 0; d < rank; d++)
      dims[d] = d < b->rank ? b->dims[d] : 1;
    if (rank > b->rank && (in[1] = reshaped(c, op, "b_broadcast", in[1], rank, dims)) < 0)
      return -1;
  }
  int y = glow_c2_out(c, op, 0);
  glow_op kind = glow_op_from_onnx(glow_c2_op_find(op->type)->onnx);
  return glow_c2_infer(c, glow_c2_node(c, op, kind, NULL, 2, in, 1, &y));
}

/* Clip: min and max arguments (default: no bound) as opset 11's inputs. */
static int emit_clip(glow_c2 *c, const glow_c2_op *op) {
  int in[3] = {glow_c2_in(c, op, 0), -1, -1};
  if (in[0] < 0)
    return -1;
  static const char *const names[] = {"min", "max"};
  for (int k = 0; k < 2; k++) {
    double v;
    if (!glow_c2_arg(op, names[k]))
      continue;
    if (glow_c2_arg_float(op, names[k], 0, &v))
      return -1;
    if (c->g->vals[in[0]].dt != GLOW_DT_F32)
      return glow_c2_err(op, "Clip is imported for float inputs only");
    float f = (float)v;
    in[k + 1] = glow_c2_const(c, op, names[k], GLOW_DT_F32, 0, NULL, &f);
  }
  int y = glow_c2_out(c, op, 0);
  return glow_c2_infer(c, glow_c2_node(c, op, GLOW_OP_CLIP, NULL, in[2] >= 0 ? 3 : in[1] >= 0 ? 2 : 1, in, 1, &y));
}

/* Scale: X * scale (a float argument, default 1). */
static int emit_scale(glow_c2 *c, const glow_c2_op *op) {
  double s;
  int in[2] = {glow_c2_in(c, op, 0), -1};
  if (in[0] < 0 || glow_c2_arg_float(op, "scale", 1.0, &s))
    return -1;
  if (c->g->vals[in[0]].dt != GLOW_DT_F32)
    return glow_c2_err(op, "Scale is imported for float inputs only");
  float f = (float)s;
  in[1] = glow_c2_const(c, op, "scale", GLOW_DT_F32, 0, NULL, &f);
  int y = glow_c2_out(c, op, 0);
  return glow_c2_infer(c, glow_c2_node(c, op, GLOW_OP_MUL, NULL, 2, in, 1, &y));
}

/* PRelu (NCHW): one slope per channel, or one for all. */
static int emit_prelu(glow_c2 *c, const glow_c2_op *op) {
  int in[2];
  if (inputs(c, op, in) || glow_c2_check_nchw(op))
    return -1;
  const glow_value *x = &c->g->vals[in[0]], *s = &c->g->vals[in[1]];
  if (glow_value_numel(s) != 1 && x->rank > 2) { /* [C] -> [C,1,...] for ONNX's trailing alignment */
    int64_t dims[GLOW_MAX_RANK];
    dims[0] = glow_value_numel(s);
    for (int d = 1; d < x->rank - 1; d++)
      dims[d] = 1;
    if ((in[1] = reshaped(c, op, "slope", in[1], x->rank - 1, dims)) < 0)
      return -1;
  }
  int y = glow_c2_out(c, op, 0);
  return glow_c2_infer(c, glow_c2_node(c, op, GLOW_OP_PRELU, NULL, 2, in, 1, &y));
}

/* Int8Quantize (float to uint8 at its Y_scale and Y_zero_point: Caffe2's Int8
 * tensors are uint8) and Int8Dequantize (of a uint8 blob whose scale and zero
 * point an Int8 fill or Int8Quantize gave). */
static int emit_int8(glow_c2 *c, const glow_c2_op *op) {
  int quantize = !strcmp(op->type, "Int8Quantize");
  double scale;
  int64_t zp;
  int in[3] = {glow_c2_in(c, op, 0), -1, -1};
  if (in[0] < 0)
    return -1;
  if (quantize && (glow_c2_arg_float(op, "Y_scale", 1, &scale) || glow_c2_arg_int(op, "Y_zero_point", 0, &zp)))
    return -1;
  if (!quantize && (glow_c2_qparams(c, in[0], &scale, &zp) || c->g->vals[in[0]].dt != GLOW_DT_U8))
    return glow_c2_err(op, "input '%s' is not a uint8 blob of an Int8GivenTensorFill or Int8Quantize",
                       op->def->input[0]);
  if (!(scale > 0 && isfinite(scale)) || zp < 0 || zp > 255)
    return glow_c2_err(op, "Y_scale must be positive and Y_zero_point from 0 to 255");
  float f = (float)scale;
  uint8_t z = (uint8_t)zp;
  in[1] = glow_c2_const(c, op, "scale", GLOW_DT_F32, 0, NULL, &f);
  in[2] = glow_c2_const(c, op, "zero_point", GLOW_DT_U8, 0, NULL, &z);
  int y = glow_c2_out(c, op, 0);
  if (quantize)
    glow_c2_set_qparams(c, y, scale, zp);
  return glow_c2_infer(
      c, glow_c2_node(c, op, quantize ? GLOW_OP_QUANTIZE_LINEAR : GLOW_OP_DEQUANTIZE_LINEAR, NULL, 3, in, 1, &y));
}

#define ANY 64
static const glow_c2_op_info ops[] = {
    {"Conv", NULL, 2, 3, 1, 1, glow_c2_emit_conv},
    {"MaxPool", NULL, 1, 1, 1, 1, glow_c2_emit_pool},
    {"MaxPool2D", NULL, 1, 1, 1, 1, glow_c2_emit_pool},
    {"AveragePool", NULL, 1, 1, 1, 1, glow_c2_emit_pool},
    {"AveragePool2D", NULL, 1, 1, 1, 1, glow_c2_emit_pool},
    {"FC", NULL, 3, 3, 1, 1, glow_c2_emit_fc},
    {"FCTransposed", NULL, 3, 3, 1, 1, glow_c2_emit_fc},
    {"SpatialBN", NULL, 5, 5, 1, 5, glow_c2_emit_spatial_bn},
    {"LRN", NULL, 1, 1, 1, 2, glow_c2_emit_lrn},
    {"Softmax", "Softmax", 1, 1, 1, 1, emit_softmax},
    {"Relu", "Relu", 1, 1, 1, 1, emit_same},
    {"LeakyRelu", "LeakyRelu", 1, 1, 1, 1, emit_leaky_relu},
    {"PRelu", NULL, 2, 2, 1, 1, emit_prelu},
    {"Sigmoid", "Sigmoid", 1, 1, 1, 1, emit_same},
    {"Tanh", "Tanh", 1, 1, 1, 1, emit_same},
    {"Exp", "Exp", 1, 1, 1, 1, emit_same},
    {"Sqrt", "Sqrt", 1, 1, 1, 1, emit_same},
    {"Abs", "Abs", 1, 1, 1, 1, emit_same},
    {"Clip", NULL, 1, 1, 1, 1, emit_clip},
    {"Scale", NULL, 1, 1, 1, 1, emit_scale},
    {"Sum", "Sum", 1, ANY, 1, 1, emit_sum},
    {"Add", "Add", 2, 2, 1, 1, emit_binary},
    {"Sub", "Sub", 2, 2, 1, 1, emit_binary},
    {"Mul", "Mul", 2, 2, 1, 1, emit_binary},
    {"Div", "Div", 2, 2, 1, 1, emit_binary},
    {"Dropout", "Identity", 1, 1, 1, 2, emit_dropout},
    {"Copy", "Identity", 1, 1, 1, 1, emit_same},
    {"Alias", "Identity", 1, 1, 1, 1, emit_same},
    {"StopGradient", "Identity", 1, 1, 1, 1, emit_same},
    {"Concat", NULL, 1, ANY, 1, 2, glow_c2_emit_concat},
    {"DepthConcat", NULL, 1, ANY, 1, 2, glow_c2_emit_concat},
    {"Flatten", NULL, 1, 1, 1, 1, glow_c2_emit_axes},
    {"Reshape", NULL, 1, 2, 1, 2, glow_c2_emit_reshape},
    {"Transpose", NULL, 1, 1, 1, 1, glow_c2_emit_axes},
    {"Squeeze", NULL, 1, 1, 1, 1, glow_c2_emit_axes},
    {"ExpandDims", NULL, 1, 1, 1, 1, glow_c2_emit_axes},
    {"ChannelShuffle", NULL, 1, 1, 1, 1, glow_c2_emit_channel_shuffle},
    {"Int8Quantize", NULL, 1, 1, 1, 1, emit_int8},
    {"Int8Dequantize", NULL, 1, 1, 1, 1, emit_int8},
};
enum { NOPS = sizeof ops / sizeof ops[0] };

const glow_c2_op_info *glow_c2_op_find(const char *type) {
  for (int i = 0; i < NOPS; i++)
    if (!strcmp(ops[i].type, type))
      return &ops[i];
  return NULL;
}

void glow_c2_op_list(glow_strbuf *b) {
  for (int i = 0; i < NOPS; i++)
    glow_sb_printf(b, "%s%s", i == 0 ? "" : i + 1 < NOPS ? ", " : " and ", ops[i].type);
}
