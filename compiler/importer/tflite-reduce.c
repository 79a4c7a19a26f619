/* TFLite's reductions (MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD), ARG_MAX
 * and ARG_MIN, and the normalizations along the last axis (LOG_SOFTMAX,
 * L2_NORMALIZATION) as ONNX's. A 4-D input made in NCHW is reduced there, with
 * its axes remapped, whenever the dimensions kept come out in NHWC's order
 * (MobileNet's MEAN over H and W after a convolution transposes nothing). */
#include "importer/tflite.h"

/* Options fields (tflite.fbs). */
enum { REDUCER_KEEP_DIMS = 0, L2NORM_ACT = 0 };

/* TFLite's l2norm kernel divides by max(norm, 1e-6). */
#define L2NORM_EPSILON 1e-6f

/* The layout a reduction of input 0 over red[] runs in: NCHW when the input was made there and
 * what is kept has the same order in both (all of it, or no C after a kept H or W). */
static int reduce_layout(const glow_tfl *c, const glow_tfl_op *op, const int *red, int keep) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  if (x->rank != 4 || glow_tfl_home(c, op, 0) != GLOW_TFL_NCHW)
    return GLOW_TFL_NHWC;
  return keep || red[3] || (red[1] && red[2]) ? GLOW_TFL_NCHW : GLOW_TFL_NHWC;
}

/* red[d] = 1 for each axis of input 0 that input 1 lists (repeats allowed, as TFLite);
 * the number of axes reduced, or -1 after an error. */
static int read_axes(glow_tfl *c, const glow_tfl_op *op, int *red) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  int64_t v[4 * GLOW_MAX_RANK];
  int n = glow_tfl_in_ints(c, op, 1, v, 4 * GLOW_MAX_RANK), count = 0;
  if (n < 0)
    return -1;
  for (int d = 0; d < x->rank; d++)
    red[d] = 0;
  for (int i = 0; i < n; i++) {
    int64_t a = v[i] < 0 ? v[i] + x->rank : v[i];
    if (a < 0 || a >= x->rank)
      return glow_tfl_err(c, op, "has axis %lld for an input of rank %d", (long long)v[i], x->rank);
    count += !red[a];
    red[a] = 1;
  }
  return count;
}

/* The reduced axes in `layout`, into axes[]; their count. */
static int layout_axes(const glow_tfl_tensor *x, const int *red, int layout, int64_t *axes) {
  int n = 0;
  for (int d = 0; d < x->rank; d++)
    if (red[d])
      axes[n++] = glow_tfl_axis(d, x->rank, layout);
  return n;
}

static int reduce(glow_tfl *c, const glow_tfl_op *op, glow_op kind) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  int red[GLOW_MAX_RANK], keep = glow_fb_int(&op->opts, REDUCER_KEEP_DIMS, 1, 0) != 0;
  int n = read_axes(c, op, red);
  if (n < 0)
    return -1;
  int layout = reduce_layout(c, op, red, keep);
  int in[2] = {glow_tfl_in(c, op, 0, layout), -1};
  if (in[0] < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, layout), node;
  if (n == 0) /* no axes: TFLite copies the input (ONNX would reduce them all) */
    return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_IDENTITY, NULL, 1, in, 1, &y));
  int64_t axes[GLOW_MAX_RANK];
  n = layout_axes(x, red, layout, axes);
  if (kind == GLOW_OP_REDUCE_SUM) { /* axes are an input from opset 13 on, an attribute for the others */
    in[1] = glow_tfl_const_ints(c, op, "axes", n, axes);
    node = glow_tfl_node(c, op, kind, NULL, 2, in, 1, &y);
  } else {
    node = glow_tfl_node(c, op, kind, NULL, 1, in, 1, &y);
    glow_tfl_attr_ints(c, node, "axes", axes, n);
  }
  glow_tfl_attr_int(c, node, "keepdims", keep);
  return glow_tfl_infer(c, node);
}

static int emit_mean(glow_tfl *c, const glow_tfl_op *op) { return reduce(c, op, GLOW_OP_REDUCE_MEAN); }
static int emit_sum(glow_tfl *c, const glow_tfl_op *op) { return reduce(c, op, GLOW_OP_REDUCE_SUM); }
static int emit_max(glow_tfl *c, const glow_tfl_op *op) { return reduce(c, op, GLOW_OP_REDUCE_MAX); }
static int emit_min(glow_tfl *c, const glow_tfl_op *op) { return reduce(c, op, GLOW_OP_REDUCE_MIN); }
static int emit_prod(glow_tfl *c, const glow_tfl_op *op) { return reduce(c, op, GLOW_OP_REDUCE_PROD); }

/* ONNX's ArgMax gives int64; an int32 output (output_type) is a Cast of it. */
static int arg(glow_tfl *c, const glow_tfl_op *op, glow_op kind) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *out = glow_tfl_tensor_out(c, op, 0);
  int red[GLOW_MAX_RANK];
  if (out->dt != GLOW_DT_I32 && out->dt != GLOW_DT_I64)
    return glow_tfl_err(c, op, "has an output of type %s; TFLite's indices are int32 or int64",
                        glow_dtype_name(out->dt));
  int n = read_axes(c, op, red);
  if (n < 0)
    return -1;
  if (n != 1)
    return glow_tfl_err(c, op, "must name one axis in input 1 ('%s')", glow_tfl_tensor_in(c, op, 1)->name);
  int layout = reduce_layout(c, op, red, 0);
  int in = glow_tfl_in(c, op, 0, layout);
  if (in < 0)
    return -1;
  int64_t axis;
  layout_axes(x, red, layout, &axis);
  int cast = out->dt == GLOW_DT_I32;
  int y = cast ? glow_tfl_tmp(c, op, "int64") : glow_tfl_out(c, op, 0, layout);
  int node = glow_tfl_node(c, op, kind, cast ? "int64" : NULL, 1, &in, 1, &y);
  glow_tfl_attr_int(c, node, "axis", axis);
  glow_tfl_attr_int(c, node, "keepdims", 0);
  if (glow_tfl_infer(c, node))
    return -1;
  if (!cast)
    return 0;
  int z = glow_tfl_out(c, op, 0, layout);
  node = glow_tfl_node(c, op, GLOW_OP_CAST, NULL, 1, &y, 1, &z);
  glow_tfl_attr_int(c, node, "to", GLOW_DT_I32);
  return glow_tfl_infer(c, node);
}

static int emit_argmax(glow_tfl *c, const glow_tfl_op *op) { return arg(c, op, GLOW_OP_ARGMAX); }
static int emit_argmin(glow_tfl *c, const glow_tfl_op *op) { return arg(c, op, GLOW_OP_ARGMIN); }

/* Ops along the last axis run in the layout input 0 was made in; the axis there. */
static int last_axis(const glow_tfl *c, const glow_tfl_op *op, int *layout) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  *layout = glow_tfl_home(c, op, 0);
  return glow_tfl_axis(x->rank - 1, x->rank, *layout);
}

static int emit_log_softmax(glow_tfl *c, const glow_tfl_op *op) {
  int layout, axis = last_axis(c, op, &layout);
  int x = glow_tfl_in(c, op, 0, layout);
  if (x < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, layout);
  int node = glow_tfl_node(c, op, GLOW_OP_LOG_SOFTMAX, NULL, 1, &x, 1, &y);
  glow_tfl_attr_int(c, node, "axis", axis);
  return glow_tfl_infer(c, node);
}

/* x / max(sqrt(sum of x^2 along the last axis), epsilon). */
static int emit_l2norm(glow_tfl *c, const glow_tfl_op *op) {
  int64_t act = glow_fb_int(&op->opts, L2NORM_ACT, 1, 0);
  int layout;
  int64_t axis = last_axis(c, op, &layout);
  int x = glow_tfl_in(c, op, 0, layout);
  if (x < 0)
    return -1;
  int sq = glow_tfl_tmp(c, op, "sum_square");
  int node = glow_tfl_node(c, op, GLOW_OP_REDUCE_SUM_SQUARE, "sum_square", 1, &x, 1, &sq);
  glow_tfl_attr_ints(c, node, "axes", &axis, 1);
  glow_tfl_attr_int(c, node, "keepdims", 1);
  if (glow_tfl_infer(c, node))
    return -1;
  int norm = glow_tfl_tmp(c, op, "norm");
  if (glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_SQRT, "norm", 1, &sq, 1, &norm)))
    return -1;
  float eps = L2NORM_EPSILON;
  int m[2] = {norm, glow_tfl_const(c, op, "epsilon", GLOW_DT_F32, 0, NULL, &eps)};
  int div[2] = {x, glow_tfl_tmp(c, op, "divisor")};
  if (glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_MAX, "divisor", 2, m, 1, &div[1])))
    return -1;
  int y = glow_tfl_out_pre(c, op, 0, layout, act);
  if (glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_DIV, act ? "div" : NULL, 2, div, 1, &y)))
    return -1;
  return glow_tfl_activation(c, op, y, act, 0, layout);
}

const glow_tfl_op_info glow_tfl_ops_reduce[] = {
    {.code = 11, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_l2norm},      /* L2_NORMALIZATION */
    {.code = 40, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_mean},        /* MEAN */
    {.code = 50, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_log_softmax}, /* LOG_SOFTMAX */
    {.code = 56, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_argmax},      /* ARG_MAX */
    {.code = 74, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_sum},         /* SUM */
    {.code = 79, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_argmin},      /* ARG_MIN */
    {.code = 81, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_prod},        /* REDUCE_PROD */
    {.code = 82, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_max},         /* REDUCE_MAX */
    {.code = 89, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_min},         /* REDUCE_MIN */
    {.code = -1},
};
