/* TFLite's shape and data-movement operators (reshapes, transposes, concat,
 * pack, gathers, tiles, selects, casts) and Softmax, as ONNX's (opset 13:
 * Squeeze and Unsqueeze take their axes as an input). They work on any element
 * type, so the same importers serve int8 tensors, whose scale and zero point
 * TFLite keeps unchanged through them. Constant operands (perm, multiples,
 * shape) are read here and must be constants. Concat, Tile, Cast and the
 * selects follow their inputs' layout; Transpose reads an NCHW input directly;
 * the rest read NHWC. The slicing family is in tflite-slice.c. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "importer/tflite.h"

/* Options fields (tflite.fbs). */
enum { SOFTMAX_BETA = 0 };
enum { CONCAT_AXIS = 0, CONCAT_ACT = 1 };
enum { SQUEEZE_DIMS = 0 };
enum { PACK_COUNT = 0, PACK_AXIS = 1 };
enum { UNPACK_NUM = 0, UNPACK_AXIS = 1 };
enum { GATHER_AXIS = 0, GATHER_BATCH_DIMS = 1 };

/* y = kind(in[nin]) as a node named for y (what NULL) or "<output>/what"; 0, or -1 after an error. */
static int node(glow_tfl *c, const glow_tfl_op *op, glow_op kind, const char *what, int nin, const int *in, int y) {
  return glow_tfl_infer(c, glow_tfl_node(c, op, kind, what, nin, in, 1, &y));
}

/* Input k's tensor, or NULL after an error when it is omitted. */
static const glow_tfl_tensor *need(glow_tfl *c, const glow_tfl_op *op, int k) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
  if (!t)
    glow_tfl_err(c, op, "input %d is omitted; this operator needs it", k);
  return t;
}

/* Axis `axis` of `rank` axes (negative counts from the end) in [0, rank); -1 after an error naming it. */
static int axis_in(glow_tfl *c, const glow_tfl_op *op, int64_t axis, int rank, const char *what) {
  if (axis < -rank || axis >= rank)
    return glow_tfl_err(c, op, "has %s %lld; a tensor of rank %d has axes %d to %d", what, (long long)axis, rank, -rank,
                        rank - 1);
  return (int)(axis < 0 ? axis + rank : axis);
}

/* The output's declared shape is the converter's answer to -1 and to new_shape. */
static int emit_reshape(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *out = glow_tfl_tensor_out(c, op, 0);
  int in[2] = {glow_tfl_in(c, op, 0, GLOW_TFL_NHWC), glow_tfl_const_ints(c, op, "shape", out->rank, out->dims)};
  if (in[0] < 0 || in[1] < 0)
    return -1;
  return node(c, op, GLOW_OP_RESHAPE, NULL, 2, in, glow_tfl_out(c, op, 0, GLOW_TFL_NHWC));
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
    if (node(c, op, GLOW_OP_MUL, "scaled", 2, in, x))
      return -1;
  }
  int y = glow_tfl_out(c, op, 0, GLOW_TFL_NHWC);
  int n = glow_tfl_node(c, op, GLOW_OP_SOFTMAX, NULL, 1, &x, 1, &y);
  glow_tfl_attr_int(c, n, "axis", -1);
  return glow_tfl_infer(c, n);
}

/* TFLite's int8 kernel requires every input's scale and zero point to be the output's
 * (uint8's rescales); glowc copies bytes, so it holds them all to that. */
static int concat_quant(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *y = glow_tfl_tensor_out(c, op, 0);
  for (int k = 0; k < op->nin; k++) {
    const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
    if (!t || (!t->nq && !y->nq))
      continue;
    if (!t->nq || !y->nq || t->scale[0] != y->scale[0] || t->zero[0] != y->zero[0])
      return glow_tfl_err(c, op, "concatenates input %d ('%s', scale %g, zero point %lld) into an output of scale %g "
                          "and zero point %lld; glowc concatenates quantized tensors of one scale and zero point only "
                          "(requantize the inputs first)", k, t->name, t->nq ? t->scale[0] : 0.0,
                          (long long)(t->nq ? t->zero[0] : 0), y->nq ? y->scale[0] : 0.0,
                          (long long)(y->nq ? y->zero[0] : 0));
  }
  return 0;
}

static int emit_concat(glow_tfl *c, const glow_tfl_op *op) {
  int64_t act = glow_fb_int(&op->opts, CONCAT_ACT, 1, 0);
  const glow_tfl_tensor *y = glow_tfl_tensor_out(c, op, 0);
  int axis = axis_in(c, op, glow_fb_int(&op->opts, CONCAT_AXIS, 4, 0), y->rank, "axis");
  if (axis < 0 || concat_quant(c, op))
    return -1;
  int layout = glow_tfl_follow(c, op);
  int *in = glow_xmalloc(sizeof(int) * (size_t)op->nin);
  for (int k = 0; k < op->nin; k++)
    if ((in[k] = glow_tfl_in(c, op, k, layout)) < 0) {
      free(in);
      return -1;
    }
  int out = glow_tfl_out_pre(c, op, 0, layout, act);
  int n = glow_tfl_node(c, op, GLOW_OP_CONCAT, act ? "concat" : NULL, op->nin, in, 1, &out);
  free(in);
  glow_tfl_attr_int(c, n, "axis", glow_tfl_axis(axis, y->rank, layout));
  return glow_tfl_infer(c, n) || glow_tfl_activation(c, op, out, act, 0, layout) ? -1 : 0;
}

/* squeeze_dims, or every axis of extent 1 when it is empty. */
static int emit_squeeze(glow_tfl *c, const glow_tfl_op *op) {
  glow_fb_vec v;
  int64_t axes[GLOW_MAX_RANK];
  const glow_tfl_tensor *x = need(c, op, 0);
  if (!x)
    return -1;
  if (glow_fb_vec_field(&op->opts, SQUEEZE_DIMS, 4, &v) < 0)
    return glow_tfl_err(c, op, "has unreadable options (%s)", op->opts.fb->err);
  if (v.n > GLOW_MAX_RANK)
    return glow_tfl_err(c, op, "squeezes %u axes; a tensor has at most %d", v.n, GLOW_MAX_RANK);
  for (uint32_t i = 0; i < v.n; i++)
    if ((axes[i] = axis_in(c, op, glow_fb_vec_int(&v, i), x->rank, "squeeze_dims entry")) < 0)
      return -1;
  int in[2] = {glow_tfl_in(c, op, 0, GLOW_TFL_NHWC), v.n ? glow_tfl_const_ints(c, op, "axes", (int)v.n, axes) : -1};
  if (in[0] < 0 || (v.n && in[1] < 0))
    return -1;
  return node(c, op, GLOW_OP_SQUEEZE, NULL, v.n ? 2 : 1, in, glow_tfl_out(c, op, 0, GLOW_TFL_NHWC));
}

/* Input 1 is the new axis, of the output's rank (TF's negative axes count as ONNX's do). */
static int emit_expand_dims(glow_tfl *c, const glow_tfl_op *op) {
  int64_t axis[2];
  const glow_tfl_tensor *x = need(c, op, 0);
  if (!x)
    return -1;
  int n = glow_tfl_in_ints(c, op, 1, axis, 2);
  if (n < 0)
    return -1;
  if (n != 1)
    return glow_tfl_err(c, op, "has %d axes in input 1; EXPAND_DIMS takes one", n);
  if (axis_in(c, op, axis[0], x->rank + 1, "axis") < 0)
    return -1;
  int in[2] = {glow_tfl_in(c, op, 0, GLOW_TFL_NHWC), glow_tfl_const_ints(c, op, "axes", 1, axis)};
  if (in[0] < 0 || in[1] < 0)
    return -1;
  return node(c, op, GLOW_OP_UNSQUEEZE, NULL, 2, in, glow_tfl_out(c, op, 0, GLOW_TFL_NHWC));
}

/* perm is input 1. An input made in NCHW is transposed from there in one step. */
static int emit_transpose(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = need(c, op, 0);
  if (!x)
    return -1;
  int64_t perm[GLOW_MAX_RANK];
  int n = glow_tfl_in_ints(c, op, 1, perm, GLOW_MAX_RANK);
  if (n < 0)
    return -1;
  if (n != x->rank)
    return glow_tfl_err(c, op, "has a permutation of %d axes for an input of rank %d", n, x->rank);
  int layout = glow_tfl_home(c, op, 0);
  for (int d = 0; d < n; d++) {
    int a = axis_in(c, op, perm[d], n, "permutation entry");
    if (a < 0)
      return -1;
    perm[d] = glow_tfl_axis(a, n, layout);
  }
  int in = glow_tfl_in(c, op, 0, layout);
  if (in < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, GLOW_TFL_NHWC);
  int t = glow_tfl_node(c, op, GLOW_OP_TRANSPOSE, NULL, 1, &in, 1, &y);
  glow_tfl_attr_ints(c, t, "perm", perm, n);
  return glow_tfl_infer(c, t);
}

/* Each input gains the new axis (Unsqueeze), then they are concatenated along it. */
static int emit_pack(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = need(c, op, 0);
  if (!x)
    return -1;
  int64_t count = glow_fb_int(&op->opts, PACK_COUNT, 4, op->nin);
  int64_t axis = axis_in(c, op, glow_fb_int(&op->opts, PACK_AXIS, 4, 0), x->rank + 1, "axis");
  if (axis < 0)
    return -1;
  if (count != op->nin)
    return glow_tfl_err(c, op, "has values_count %lld but %d inputs", (long long)count, op->nin);
  int axes = glow_tfl_const_ints(c, op, "axes", 1, &axis);
  int *parts = glow_xmalloc(sizeof(int) * (size_t)op->nin), rc = axes < 0;
  for (int k = 0; k < op->nin && !rc; k++) {
    char what[32];
    snprintf(what, sizeof what, "input%d", k);
    int in[2] = {glow_tfl_in(c, op, k, GLOW_TFL_NHWC), axes};
    parts[k] = op->nin == 1 ? glow_tfl_out(c, op, 0, GLOW_TFL_NHWC) : glow_tfl_tmp(c, op, what);
    rc = in[0] < 0 || node(c, op, GLOW_OP_UNSQUEEZE, op->nin == 1 ? NULL : what, 2, in, parts[k]);
  }
  if (!rc && op->nin > 1) {
    int y = glow_tfl_out(c, op, 0, GLOW_TFL_NHWC);
    int n = glow_tfl_node(c, op, GLOW_OP_CONCAT, NULL, op->nin, parts, 1, &y);
    glow_tfl_attr_int(c, n, "axis", axis);
    rc = glow_tfl_infer(c, n);
  }
  free(parts);
  return rc ? -1 : 0;
}

/* Split into `num` parts of one along the axis, then Squeeze it from each. */
static int emit_unpack(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = need(c, op, 0);
  if (!x)
    return -1;
  int64_t num = glow_fb_int(&op->opts, UNPACK_NUM, 4, op->nout);
  int64_t axis = axis_in(c, op, glow_fb_int(&op->opts, UNPACK_AXIS, 4, 0), x->rank, "axis");
  if (axis < 0)
    return -1;
  if (num != op->nout || x->dims[axis] != num)
    return glow_tfl_err(c, op, "unpacks axis %lld of extent %lld into num %lld, with %d outputs; all three must be "
                        "equal", (long long)axis, (long long)x->dims[axis], (long long)num, op->nout);
  int in[2] = {glow_tfl_in(c, op, 0, GLOW_TFL_NHWC), glow_tfl_const_ints(c, op, "axes", 1, &axis)};
  if (in[0] < 0 || in[1] < 0)
    return -1;
  int *parts = glow_xmalloc(sizeof(int) * (size_t)op->nout), rc = 0;
  for (int k = 0; k < op->nout; k++) {
    char what[32];
    snprintf(what, sizeof what, "part%d", k);
    parts[k] = glow_tfl_tmp(c, op, what);
  }
  int n = glow_tfl_node(c, op, GLOW_OP_SPLIT, "split", 1, in, op->nout, parts);
  glow_tfl_attr_int(c, n, "axis", axis);
  rc = glow_tfl_infer(c, n);
  for (int k = 0; k < op->nout && !rc; k++) {
    int sq[2] = {parts[k], in[1]}, y = glow_tfl_out(c, op, k, GLOW_TFL_NHWC);
    rc = glow_tfl_infer(c, glow_node_add(c->g, GLOW_OP_SQUEEZE, c->g->vals[y].name, 2, sq, 1, &y));
  }
  free(parts);
  return rc ? -1 : 0;
}

static int emit_gather(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = need(c, op, 0);
  if (!x)
    return -1;
  int64_t batch_dims = glow_fb_int(&op->opts, GATHER_BATCH_DIMS, 4, 0);
  int axis = axis_in(c, op, glow_fb_int(&op->opts, GATHER_AXIS, 4, 0), x->rank, "axis");
  if (axis < 0)
    return -1;
  if (batch_dims)
    return glow_tfl_err(c, op, "has batch_dims %lld; glowc gathers with batch_dims 0 only", (long long)batch_dims);
  int in[2] = {glow_tfl_in(c, op, 0, GLOW_TFL_NHWC), glow_tfl_in(c, op, 1, GLOW_TFL_NHWC)};
  if (in[0] < 0 || in[1] < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, GLOW_TFL_NHWC);
  int n = glow_tfl_node(c, op, GLOW_OP_GATHER, NULL, 2, in, 1, &y);
  glow_tfl_attr_int(c, n, "axis", axis);
  return glow_tfl_infer(c, n);
}

static int emit_gather_nd(glow_tfl *c, const glow_tfl_op *op) {
  int in[2] = {glow_tfl_in(c, op, 0, GLOW_TFL_NHWC), glow_tfl_in(c, op, 1, GLOW_TFL_NHWC)};
  if (in[0] < 0 || in[1] < 0)
    return -1;
  return node(c, op, GLOW_OP_GATHER_ND, NULL, 2, in, glow_tfl_out(c, op, 0, GLOW_TFL_NHWC));
}

/* multiples is input 1, permuted with the input when that runs in NCHW. */
static int emit_tile(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = need(c, op, 0);
  if (!x)
    return -1;
  int64_t m[GLOW_MAX_RANK], reps[GLOW_MAX_RANK];
  int n = glow_tfl_in_ints(c, op, 1, m, GLOW_MAX_RANK);
  if (n < 0)
    return -1;
  if (n != x->rank)
    return glow_tfl_err(c, op, "has %d multiples for an input of rank %d", n, x->rank);
  int layout = glow_tfl_follow(c, op);
  for (int d = 0; d < n; d++)
    reps[glow_tfl_axis(d, n, layout)] = m[d];
  int in[2] = {glow_tfl_in(c, op, 0, layout), glow_tfl_const_ints(c, op, "repeats", n, reps)};
  if (in[0] < 0 || in[1] < 0)
    return -1;
  return node(c, op, GLOW_OP_TILE, NULL, 2, in, glow_tfl_out(c, op, 0, layout));
}

/* To the output's declared type (glow_dtype numbers are ONNX's). */
static int emit_cast(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *y = glow_tfl_tensor_out(c, op, 0);
  if (y->dt == GLOW_DT_UNDEF)
    return glow_tfl_err(c, op, "casts to output '%s' of a type glowc does not compute", y->name);
  int layout = glow_tfl_follow(c, op);
  int in = glow_tfl_in(c, op, 0, layout);
  if (in < 0)
    return -1;
  int out = glow_tfl_out(c, op, 0, layout);
  int n = glow_tfl_node(c, op, GLOW_OP_CAST, NULL, 1, &in, 1, &out);
  glow_tfl_attr_int(c, n, "to", y->dt);
  return glow_tfl_infer(c, n);
}

/* Where(condition, x, y). SELECT's condition may be 1-D against a higher-rank x: it
 * picks whole rows, so it becomes (n, 1, ..., 1) to broadcast. SELECT_V2 broadcasts. */
static int emit_select(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *cond = need(c, op, 0), *x = cond ? need(c, op, 1) : NULL;
  if (!x)
    return -1;
  int rows = op->code == 64 && cond->rank == 1 && x->rank > 1;
  int layout = rows ? GLOW_TFL_NHWC : glow_tfl_follow(c, op), in[3];
  for (int k = 0; k < 3; k++)
    if ((in[k] = glow_tfl_in_bcast(c, op, k, layout)) < 0)
      return -1;
  if (rows) {
    int64_t shape[GLOW_MAX_RANK];
    shape[0] = cond->dims[0];
    for (int d = 1; d < x->rank; d++)
      shape[d] = 1;
    int r[2] = {in[0], glow_tfl_const_ints(c, op, "rows", x->rank, shape)};
    in[0] = glow_tfl_tmp(c, op, "rows");
    if (r[1] < 0 || node(c, op, GLOW_OP_RESHAPE, "rows", 2, r, in[0]))
      return -1;
  }
  return node(c, op, GLOW_OP_WHERE, NULL, 3, in, glow_tfl_out(c, op, 0, layout));
}

/* Expand to the shape in input 1. */
static int emit_broadcast_to(glow_tfl *c, const glow_tfl_op *op) {
  int64_t shape[GLOW_MAX_RANK];
  int n = glow_tfl_in_ints(c, op, 1, shape, GLOW_MAX_RANK);
  if (n < 0)
    return -1;
  int in[2] = {glow_tfl_in(c, op, 0, GLOW_TFL_NHWC), glow_tfl_const_ints(c, op, "shape", n, shape)};
  if (in[0] < 0 || in[1] < 0)
    return -1;
  return node(c, op, GLOW_OP_EXPAND, NULL, 2, in, glow_tfl_out(c, op, 0, GLOW_TFL_NHWC));
}

const glow_tfl_op_info glow_tfl_ops_tensor[] = {
    {.code = 2, .min_in = 1, .max_in = INT_MAX, .min_out = 1, .max_out = 1, .emit = emit_concat}, /* CONCATENATION */
    {.code = 22, .min_in = 1, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_reshape},     /* RESHAPE */
    {.code = 25, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_softmax},     /* SOFTMAX */
    {.code = 36, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_gather},      /* GATHER */
    {.code = 39, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_transpose},   /* TRANSPOSE */
    {.code = 43, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_squeeze},     /* SQUEEZE */
    {.code = 53, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_cast},        /* CAST */
    {.code = 64, .min_in = 3, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_select},      /* SELECT */
    {.code = 69, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_tile},        /* TILE */
    {.code = 70, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_expand_dims}, /* EXPAND_DIMS */
    {.code = 83, .min_in = 1, .max_in = INT_MAX, .min_out = 1, .max_out = 1, .emit = emit_pack},  /* PACK */
    {.code = 88, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = INT_MAX, .emit = emit_unpack}, /* UNPACK */
    {.code = 107, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_gather_nd},  /* GATHER_ND */
    {.code = 123, .min_in = 3, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_select},     /* SELECT_V2 */
    {.code = 130, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_broadcast_to}, /* BROADCAST_TO */
    {.code = -1},
};
