/* TFLite's binary and n-ary elementwise operators (arithmetic, comparisons,
 * logic) as ONNX's, in the layout of their inputs: they broadcast as numpy
 * does, as ONNX's do. Where ONNX has no operator, a few of its own: TF's
 * floor division and floor modulo take the divisor's sign, as ONNX Mod with
 * fmod=0 does. */
#include <limits.h>
#include <stdlib.h>

#include "importer/tflite.h"

enum { ARITH_ACT = 0 }; /* AddOptions, SubOptions, MulOptions, DivOptions */

/* Inputs 0..n-1 of an op running in `layout` into in[]; -1 after an error (quantized
 * ones have no importer here). */
static int inputs(glow_tfl *c, const glow_tfl_op *op, int layout, int n, int *in) {
  for (int k = 0; k < n; k++) {
    const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
    if (glow_tfl_is_q(t))
      return glow_tfl_err(c, op, "has a quantized %s input %d ('%s'), which glowc does not import for this "
                          "operator", glow_dtype_name(t->dt), k, t->name);
    if ((in[k] = glow_tfl_in_bcast(c, op, k, layout)) < 0)
      return -1;
  }
  return 0;
}

/* y = kind(a, b) as a node named for its output (what NULL) or "<output>/what"; y, or -1. */
static int node2(glow_tfl *c, const glow_tfl_op *op, glow_op kind, const char *what, int a, int b, int y) {
  int in[2] = {a, b};
  return glow_tfl_infer(c, glow_tfl_node(c, op, kind, what, 2, in, 1, &y)) ? -1 : y;
}

static int binary(glow_tfl *c, const glow_tfl_op *op, glow_op kind, int has_act) {
  int64_t act = has_act ? glow_fb_int(&op->opts, ARITH_ACT, 1, 0) : 0;
  int layout = glow_tfl_follow(c, op), in[2];
  if (inputs(c, op, layout, 2, in))
    return -1;
  int y = glow_tfl_out_pre(c, op, 0, layout, act);
  if (node2(c, op, kind, act ? "op" : NULL, in[0], in[1], y) < 0)
    return -1;
  return glow_tfl_activation(c, op, y, act, 0, layout) ? -1 : 0;
}

static int emit_add(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_ADD, 1); }
static int emit_sub(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_SUB, 1); }
static int emit_mul(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_MUL, 1); }
static int emit_div(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_DIV, 1); }
static int emit_max(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_MAX, 0); }
static int emit_min(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_MIN, 0); }
static int emit_pow(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_POW, 0); }
static int emit_equal(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_EQUAL, 0); }
static int emit_less(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_LESS, 0); }
static int emit_less_equal(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_LESS_OR_EQUAL, 0); }
static int emit_greater(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_GREATER, 0); }
static int emit_greater_equal(glow_tfl *c, const glow_tfl_op *op) {
  return binary(c, op, GLOW_OP_GREATER_OR_EQUAL, 0);
}
static int emit_and(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_AND, 0); }
static int emit_or(glow_tfl *c, const glow_tfl_op *op) { return binary(c, op, GLOW_OP_OR, 0); }

/* Not(Equal(a, b)). */
static int emit_not_equal(glow_tfl *c, const glow_tfl_op *op) {
  int layout = glow_tfl_follow(c, op), in[2];
  if (inputs(c, op, layout, 2, in))
    return -1;
  int eq = node2(c, op, GLOW_OP_EQUAL, "equal", in[0], in[1], glow_tfl_tmp(c, op, "equal"));
  if (eq < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, layout);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_NOT, NULL, 1, &eq, 1, &y));
}

/* (a - b) * (a - b). */
static int emit_squared_difference(glow_tfl *c, const glow_tfl_op *op) {
  int layout = glow_tfl_follow(c, op), in[2];
  if (inputs(c, op, layout, 2, in))
    return -1;
  int d = node2(c, op, GLOW_OP_SUB, "difference", in[0], in[1], glow_tfl_tmp(c, op, "difference"));
  return d < 0 || node2(c, op, GLOW_OP_MUL, NULL, d, d, glow_tfl_out(c, op, 0, layout)) < 0 ? -1 : 0;
}

/* a - b * floor(a / b) with the sign of b: ONNX Mod with fmod=0 (numpy's remainder). */
static int floor_mod(glow_tfl *c, const glow_tfl_op *op, const int *in, const char *what, int y) {
  int node = glow_tfl_node(c, op, GLOW_OP_MOD, what, 2, in, 1, &y);
  glow_tfl_attr_int(c, node, "fmod", 0);
  return glow_tfl_infer(c, node) ? -1 : y;
}

static int emit_floor_mod(glow_tfl *c, const glow_tfl_op *op) {
  int layout = glow_tfl_follow(c, op), in[2];
  if (inputs(c, op, layout, 2, in))
    return -1;
  return floor_mod(c, op, in, NULL, glow_tfl_out(c, op, 0, layout)) < 0 ? -1 : 0;
}

/* Floats: Floor(a / b). Integers: (a - floor_mod(a, b)) / b, a division with no
 * remainder, so Div's truncation is the floor. */
static int emit_floor_div(glow_tfl *c, const glow_tfl_op *op) {
  int layout = glow_tfl_follow(c, op), in[2];
  if (inputs(c, op, layout, 2, in))
    return -1;
  int y = glow_tfl_out(c, op, 0, layout);
  if (glow_dtype_is_float(glow_tfl_tensor_in(c, op, 0)->dt)) {
    int q = node2(c, op, GLOW_OP_DIV, "quotient", in[0], in[1], glow_tfl_tmp(c, op, "quotient"));
    return q < 0 ? -1 : glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_FLOOR, NULL, 1, &q, 1, &y));
  }
  int m = floor_mod(c, op, in, "remainder", glow_tfl_tmp(c, op, "remainder"));
  int d = m < 0 ? -1 : node2(c, op, GLOW_OP_SUB, "multiple", in[0], m, glow_tfl_tmp(c, op, "multiple"));
  return d < 0 || node2(c, op, GLOW_OP_DIV, NULL, d, in[1], y) < 0 ? -1 : 0;
}

/* Floats: one Sum (Identity for one input). Integers (Sum takes floats only): a chain of Adds. */
static int add_n(glow_tfl *c, const glow_tfl_op *op, int layout, const int *in) {
  int y = glow_tfl_out(c, op, 0, layout);
  if (glow_dtype_is_float(glow_tfl_tensor_in(c, op, 0)->dt) || op->nin == 1)
    return glow_tfl_infer(c, glow_tfl_node(c, op, op->nin == 1 ? GLOW_OP_IDENTITY : GLOW_OP_SUM, NULL, op->nin, in,
                                           1, &y));
  int acc = in[0];
  for (int k = 1; k < op->nin && acc >= 0; k++) {
    int last = k + 1 == op->nin;
    acc = node2(c, op, GLOW_OP_ADD, last ? NULL : "sum", acc, in[k], last ? y : glow_tfl_tmp(c, op, "sum"));
  }
  return acc < 0 ? -1 : 0;
}

static int emit_add_n(glow_tfl *c, const glow_tfl_op *op) {
  int layout = glow_tfl_follow(c, op);
  int *in = glow_xmalloc(sizeof(int) * (size_t)op->nin);
  int rc = inputs(c, op, layout, op->nin, in) ? -1 : add_n(c, op, layout, in);
  free(in);
  return rc;
}

const glow_tfl_op_info glow_tfl_ops_math[] = {
    {.code = 0, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_add},   /* ADD */
    {.code = 18, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_mul},  /* MUL */
    {.code = 41, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_sub},  /* SUB */
    {.code = 42, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_div},  /* DIV */
    {.code = 55, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_max},  /* MAXIMUM */
    {.code = 57, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_min},  /* MINIMUM */
    {.code = 58, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_less}, /* LESS */
    {.code = 61, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_greater},       /* GREATER */
    {.code = 62, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_greater_equal}, /* GREATER_EQUAL */
    {.code = 63, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_less_equal},    /* LESS_EQUAL */
    {.code = 71, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_equal},         /* EQUAL */
    {.code = 72, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_not_equal},     /* NOT_EQUAL */
    {.code = 78, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_pow},           /* POW */
    {.code = 84, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_or},            /* LOGICAL_OR */
    {.code = 86, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_and},           /* LOGICAL_AND */
    {.code = 90, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_floor_div},     /* FLOOR_DIV */
    {.code = 95, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_floor_mod},     /* FLOOR_MOD */
    {.code = 99, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_squared_difference},
    /* SQUARED_DIFFERENCE */
    {.code = 106, .min_in = 1, .max_in = INT_MAX, .min_out = 1, .max_out = 1, .emit = emit_add_n}, /* ADD_N */
    {.code = -1},
};
