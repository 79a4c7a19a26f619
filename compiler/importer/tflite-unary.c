/* TFLite's unary elementwise operators and activations as ONNX's, in the layout
 * of their input (after an NCHW convolution they stay NCHW). RSQRT and SQUARE
 * are made of two and one ONNX operators; the clipped ReLUs are Clip. */
#include "importer/tflite.h"

/* Options fields and their BuiltinOptions union numbers (tflite.fbs). */
enum { LEAKY_ALPHA = 0, LEAKY_OPTIONS = 75 };
enum { GELU_APPROXIMATE = 0, GELU_OPTIONS = 116 };

/* The options table, or an error when the operator carries another kind. */
static int options(glow_tfl *c, const glow_tfl_op *op, int64_t type) {
  if (op->opts.pos && op->opts_type != type)
    return glow_tfl_err(c, op, "has builtin options of type %lld; this operator's are type %lld",
                        (long long)op->opts_type, (long long)type);
  return 0;
}

/* Input 0 in `layout`; -1 after an error (a quantized one has no importer here). */
static int in0(glow_tfl *c, const glow_tfl_op *op, int layout) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, 0);
  if (glow_tfl_is_q(t))
    return glow_tfl_err(c, op, "has a quantized %s input ('%s'), which glowc does not import for this operator",
                        glow_dtype_name(t->dt), t->name);
  return glow_tfl_in(c, op, 0, layout);
}

/* y = kind(x) on input 0 in its layout; the node, or -1. */
static int unary_node(glow_tfl *c, const glow_tfl_op *op, glow_op kind) {
  int layout = glow_tfl_follow(c, op);
  int x = in0(c, op, layout);
  if (x < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, layout);
  return glow_tfl_node(c, op, kind, NULL, 1, &x, 1, &y);
}

static int unary(glow_tfl *c, const glow_tfl_op *op, glow_op kind) {
  int node = unary_node(c, op, kind);
  return node < 0 ? -1 : glow_tfl_infer(c, node);
}

static int emit_abs(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_ABS); }
static int emit_neg(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_NEG); }
static int emit_exp(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_EXP); }
static int emit_log(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_LOG); }
static int emit_sqrt(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_SQRT); }
static int emit_sin(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_SIN); }
static int emit_cos(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_COS); }
static int emit_ceil(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_CEIL); }
static int emit_floor(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_FLOOR); }
/* Both round half to even. */
static int emit_round(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_ROUND); }
static int emit_sign(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_SIGN); }
static int emit_logistic(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_SIGMOID); }
static int emit_tanh(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_TANH); }
static int emit_relu(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_RELU); }
static int emit_hard_swish(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_HARDSWISH); }
static int emit_elu(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_ELU); } /* alpha 1 */
static int emit_not(glow_tfl *c, const glow_tfl_op *op) { return unary(c, op, GLOW_OP_NOT); }

static int emit_leaky_relu(glow_tfl *c, const glow_tfl_op *op) {
  if (options(c, op, LEAKY_OPTIONS))
    return -1;
  int node = unary_node(c, op, GLOW_OP_LEAKYRELU);
  if (node < 0)
    return -1;
  glow_tfl_attr_float(c, node, "alpha", glow_fb_float(&op->opts, LEAKY_ALPHA, 0.0f));
  return glow_tfl_infer(c, node);
}

/* approximate: the tanh form; else the exact one, with erf. */
static int emit_gelu(glow_tfl *c, const glow_tfl_op *op) {
  if (options(c, op, GELU_OPTIONS))
    return -1;
  int node = unary_node(c, op, GLOW_OP_GELU);
  if (node < 0)
    return -1;
  glow_tfl_attr_string(c, node, "approximate", glow_fb_int(&op->opts, GELU_APPROXIMATE, 1, 0) ? "tanh" : "none");
  return glow_tfl_infer(c, node);
}

/* Clip(x, lo, hi) for float32 x. */
static int clip(glow_tfl *c, const glow_tfl_op *op, float lo, float hi) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, 0);
  if (!t->nq && t->dt != GLOW_DT_F32)
    return glow_tfl_err(c, op, "has an input of type %s; glowc imports this operator for float32 inputs",
                        glow_dtype_name(t->dt));
  int layout = glow_tfl_follow(c, op);
  int in[3] = {in0(c, op, layout), glow_tfl_const(c, op, "min", GLOW_DT_F32, 0, NULL, &lo),
               glow_tfl_const(c, op, "max", GLOW_DT_F32, 0, NULL, &hi)};
  if (in[0] < 0 || in[1] < 0 || in[2] < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, layout);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_CLIP, NULL, 3, in, 1, &y));
}

static int emit_relu6(glow_tfl *c, const glow_tfl_op *op) { return clip(c, op, 0.0f, 6.0f); }
static int emit_relu_n1_to_1(glow_tfl *c, const glow_tfl_op *op) { return clip(c, op, -1.0f, 1.0f); }
static int emit_relu_0_to_1(glow_tfl *c, const glow_tfl_op *op) { return clip(c, op, 0.0f, 1.0f); }

/* x * x. */
static int emit_square(glow_tfl *c, const glow_tfl_op *op) {
  int layout = glow_tfl_follow(c, op);
  int in[2] = {in0(c, op, layout), -1};
  if (in[0] < 0)
    return -1;
  in[1] = in[0];
  int y = glow_tfl_out(c, op, 0, layout);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_MUL, NULL, 2, in, 1, &y));
}

/* 1 / sqrt(x). */
static int emit_rsqrt(glow_tfl *c, const glow_tfl_op *op) {
  int layout = glow_tfl_follow(c, op);
  int x = in0(c, op, layout);
  if (x < 0)
    return -1;
  int s = glow_tfl_tmp(c, op, "sqrt");
  if (glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_SQRT, "sqrt", 1, &x, 1, &s)))
    return -1;
  int y = glow_tfl_out(c, op, 0, layout);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_RECIPROCAL, NULL, 1, &s, 1, &y));
}

/* x < 0 ? alpha * x : x with alpha broadcast against x (numpy's rule, as ONNX PRelu's). */
static int emit_prelu(glow_tfl *c, const glow_tfl_op *op) {
  int layout = glow_tfl_follow(c, op);
  int in[2] = {in0(c, op, layout), -1};
  if (in[0] < 0 || (in[1] = glow_tfl_in_bcast(c, op, 1, layout)) < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, layout);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_PRELU, NULL, 2, in, 1, &y));
}

#define UNARY(code_, emit_) {.code = code_, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_}
const glow_tfl_op_info glow_tfl_ops_unary[] = {
    UNARY(8, emit_floor),           /* FLOOR */
    UNARY(14, emit_logistic),       /* LOGISTIC */
    UNARY(19, emit_relu),           /* RELU */
    UNARY(20, emit_relu_n1_to_1),   /* RELU_N1_TO_1 */
    UNARY(21, emit_relu6),          /* RELU6 */
    UNARY(28, emit_tanh),           /* TANH */
    UNARY(47, emit_exp),            /* EXP */
    {.code = 54, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_prelu}, /* PRELU */
    UNARY(59, emit_neg),            /* NEG */
    UNARY(66, emit_sin),            /* SIN */
    UNARY(73, emit_log),            /* LOG */
    UNARY(75, emit_sqrt),           /* SQRT */
    UNARY(76, emit_rsqrt),          /* RSQRT */
    UNARY(87, emit_not),            /* LOGICAL_NOT */
    UNARY(92, emit_square),         /* SQUARE */
    UNARY(98, emit_leaky_relu),     /* LEAKY_RELU */
    UNARY(101, emit_abs),           /* ABS */
    UNARY(104, emit_ceil),          /* CEIL */
    UNARY(108, emit_cos),           /* COS */
    UNARY(111, emit_elu),           /* ELU */
    UNARY(116, emit_round),         /* ROUND */
    UNARY(117, emit_hard_swish),    /* HARD_SWISH */
    UNARY(150, emit_gelu),          /* GELU */
    UNARY(152, emit_relu_0_to_1),   /* RELU_0_TO_1 */
    UNARY(158, emit_sign),          /* SIGN */
    {.code = -1},
};
