/* TFLite's shape and data-movement operators, and Softmax, as ONNX's. They
 * work on any element type, so the same importers serve int8 tensors (whose
 * scale and zero point TFLite keeps unchanged through them). */
#include "importer/tflite.h"

enum { SOFTMAX_BETA = 0 };

/* The output's declared shape is the converter's answer to -1 and to new_shape. */
static int emit_reshape(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *out = glow_tfl_tensor_out(c, op, 0);
  int in[2] = {glow_tfl_in(c, op, 0, GLOW_TFL_NHWC), glow_tfl_const_ints(c, op, "shape", out->rank, out->dims)};
  if (in[0] < 0 || in[1] < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, GLOW_TFL_NHWC);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_RESHAPE, NULL, 2, in, 1, &y));
}

/* softmax(beta * x) along the last axis. */
static int emit_softmax(glow_tfl *c, const glow_tfl_op *op) {
  float beta = glow_fb_float(&op->opts, SOFTMAX_BETA, 1.0f);
  int x = glow_tfl_in(c, op, 0, GLOW_TFL_NHWC);
  if (x < 0)
    return -1;
  if (beta != 1.0f) {
    int in[2] = {x, glow_tfl_const(c, op, "beta", GLOW_DT_F32, 0, NULL, &beta)};
    x = glow_tfl_tmp(c, op, "scaled");
    if (glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_MUL, "scaled", 2, in, 1, &x)))
      return -1;
  }
  int y = glow_tfl_out(c, op, 0, GLOW_TFL_NHWC);
  int node = glow_tfl_node(c, op, GLOW_OP_SOFTMAX, NULL, 1, &x, 1, &y);
  glow_tfl_attr_int(c, node, "axis", -1);
  return glow_tfl_infer(c, node);
}

const glow_tfl_op_info glow_tfl_ops_tensor[] = {
    {.code = 22, .min_in = 1, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_reshape}, /* RESHAPE */
    {.code = 25, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_softmax}, /* SOFTMAX */
    {.code = -1},
};
