/* TFLite's elementwise operators as ONNX's, in the layout of their inputs:
 * binary ops broadcast as numpy does, as ONNX's do. */
#include "importer/tflite.h"

enum { ARITH_ACT = 0 }; /* AddOptions, SubOptions, MulOptions, DivOptions */

static int binary(glow_tfl *c, const glow_tfl_op *op, glow_op kind, int has_act) {
  int64_t act = has_act ? glow_fb_int(&op->opts, ARITH_ACT, 1, 0) : 0;
  int layout = glow_tfl_follow(c, op);
  int in[2] = {glow_tfl_in_bcast(c, op, 0, layout), glow_tfl_in_bcast(c, op, 1, layout)};
  if (in[0] < 0 || in[1] < 0)
    return -1;
  int y = glow_tfl_out_pre(c, op, 0, layout, act);
  int node = glow_tfl_node(c, op, kind, act ? "op" : NULL, 2, in, 1, &y);
  return glow_tfl_infer(c, node) || glow_tfl_activation(c, op, y, act, 0, layout) ? -1 : 0;
}

static int emit_add(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_ADD, 1); }
static int emit_sub(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_SUB, 1); }
static int emit_mul(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_MUL, 1); }
static int emit_div(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_DIV, 1); }

const glow_tfl_op_info glow_tfl_ops_math[] = {
    {.code = 0, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_add},  /* ADD */
    {.code = 18, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_mul}, /* MUL */
    {.code = 41, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_sub}, /* SUB */
    {.code = 42, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_div}, /* DIV */
    {.code = -1},
};
