/* Caffe2's neural-network ops as ONNX nodes: Conv, MaxPool and AveragePool
 * (windows from caffe2-args.c; global_pooling: the Global* ops), FC and
 * FCTransposed (Flatten + Gemm, reshaped back when axis > 1), SpatialBN
 * (BatchNormalization, is_test only) and LRN. NCHW only. */
#include <string.h>

#include "importer/caffe2.h"

/* The input, N x C x spatial axes: the count of spatial axes, or -1 after an error. */
static int spatial_axes(glow_c2 *c, const glow_c2_op *op, int x) {
  const glow_value *v = &c->g->vals[x];
  if (v->rank < 3) {
    char s[160];
    return glow_c2_err(op, "input '%s' must be N x C x spatial axes (NCHW); it is %s", op->def->input[0],
                       glow_shape_str(v, s, sizeof s));
  }
  return v->rank - 2;
}

static void window_attrs(glow_c2 *c, int node, const glow_c2_window *w) {
  int dilated = 0;
  for (int i = 0; i < w->nsp; i++)
    dilated |= w->dilation[i] != 1;
  if (w->has_kernel)
    glow_c2_attr_ints(c, node, "kernel_shape", w->kernel, w->nsp);
  glow_c2_attr_ints(c, node, "strides", w->stride, w->nsp);
  if (dilated)
    glow_c2_attr_ints(c, node, "dilations", w->dilation, w->nsp);
  if (w->same)
    glow_c2_attr_string(c, node, "auto_pad", "SAME_UPPER");
  else
    glow_c2_attr_ints(c, node, "pads", w->pads, 2 * w->nsp);
  if (w->ceil_mode)
    glow_c2_attr_int(c, node, "ceil_mode", 1);
}

int glow_c2_emit_conv(glow_c2 *c, const glow_c2_op *op) {
  int in[3], nin = (int)op->def->n_input;
  for (int k = 0; k < nin; k++)
    if ((in[k] = glow_c2_in(c, op, k)) < 0)
      return -1;
  glow_c2_window w;
  int64_t group;
  int nsp = spatial_axes(c, op, in[0]);
  if (nsp < 0 || glow_c2_check_nchw(op) || glow_c2_window_args(op, nsp, 0, &w) ||
      glow_c2_arg_int(op, "group", 1, &group))
    return -1;
  if (group < 1)
    return glow_c2_err(op, "group must be at least 1 (it is %lld)", (long long)group);
  int y = glow_c2_out(c, op, 0);
  int node = glow_c2_node(c, op, GLOW_OP_CONV, NULL, nin, in, 1, &y);
  window_attrs(c, node, &w);
  glow_c2_attr_int(c, node, "group", group);
  return glow_c2_infer(c, node);
}

int glow_c2_emit_pool(glow_c2 *c, const glow_c2_op *op) {
  int avg = !strncmp(op->type, "Average", 7);
  int x = glow_c2_in(c, op, 0);
  int64_t global, include_pad;
  if (x < 0 || glow_c2_check_nchw(op) || glow_c2_arg_int(op, "global_pooling", 0, &global) ||
      glow_c2_arg_int(op, "count_include_pad", 0, &include_pad))
    return -1;
  int nsp = spatial_axes(c, op, x);
  if (nsp < 0)
    return -1;
  if (global) {
    int y = glow_c2_out(c, op, 0);
    return glow_c2_infer(c, glow_c2_node(c, op, avg ? GLOW_OP_GLOBAL_AVERAGE_POOL : GLOW_OP_GLOBAL_MAX_POOL, NULL, 1,
                                         &x, 1, &y));
  }
  glow_c2_window w;
  if (glow_c2_window_args(op, nsp, 1, &w))
    return -1;
  if (!w.has_kernel)
    return glow_c2_err(op, "no kernel (kernel, kernel_h and kernel_w, or kernels) and not global_pooling");
  for (int i = 0; avg && i < nsp; i++)
    if (w.dilation[i] != 1)
      return glow_c2_err(op, "AveragePool with dilation is not supported");
  int y = glow_c2_out(c, op, 0);
  int node = glow_c2_node(c, op, avg ? GLOW_OP_AVERAGE_POOL : GLOW_OP_MAX_POOL, NULL, 1, &x, 1, &y);
  window_attrs(c, node, &w);
  if (avg && include_pad)
    glow_c2_attr_int(c, node, "count_include_pad", 1);
  return glow_c2_infer(c, node);
}

/* Y = X' W^T + b (FCTransposed: X' W + b), X' being X flattened to 2-D at
 * `axis` (default 1) and W at `axis_w`; Y has X's axes before `axis`, then N. */
int glow_c2_emit_fc(glow_c2 *c, const glow_c2_op *op) {
  int in[3];
  for (int k = 0; k < 3; k++)
    if ((in[k] = glow_c2_in(c, op, k)) < 0)
      return -1;
  int64_t axis, axis_w;
  if (glow_c2_arg_int(op, "axis", 1, &axis) || glow_c2_arg_int(op, "axis_w", 1, &axis_w))
    return -1;
  const glow_value *x = &c->g->vals[in[0]], *wv = &c->g->vals[in[1]];
  int64_t xdims[GLOW_MAX_RANK];
  int xrank = x->rank;
  memcpy(xdims, x->dims, sizeof xdims);
  axis += axis < 0 ? xrank : 0;
  axis_w += axis_w < 0 ? wv->rank : 0;
  if (axis < 0 || axis > xrank || axis_w < 0 || axis_w > wv->rank)
    return glow_c2_err(op, "axis %lld or axis_w %lld is outside the ranks of X (%d) and W (%d)", (long long)axis,
                       (long long)axis_w, xrank, wv->rank);
  static const char *const names[] = {"x_2d", "w_2d"};
  const int64_t flat_axis[] = {axis, axis_w};
  for (int k = 0; k < 2; k++) {
    if (c->g->vals[in[k]].rank == 2 && flat_axis[k] == 1)
      continue;
    int flat = glow_c2_tmp(c, op, names[k]);
    int node = glow_c2_node(c, op, GLOW_OP_FLATTEN, names[k], 1, &in[k], 1, &flat);
    glow_c2_attr_int(c, node, "axis", flat_axis[k]);
    if (glow_c2_infer(c, node))
      return -1;
    in[k] = flat;
  }
  int keep = axis == 1; /* else Gemm's [M, N] is reshaped to X's leading axes and N */
  int y = keep ? glow_c2_out(c, op, 0) : glow_c2_tmp(c, op, "gemm");
  int node = glow_c2_node(c, op, GLOW_OP_GEMM, keep ? NULL : "gemm", 3, in, 1, &y);
  glow_c2_attr_int(c, node, "transB", strcmp(op->type, "FCTransposed") != 0);
  if (glow_c2_infer(c, node))
    return -1;
  if (keep)
    return 0;
  xdims[axis] = c->g->vals[y].dims[1];
  int shape = glow_c2_const(c, op, "shape", GLOW_DT_I64, 1, (int64_t[]){axis + 1}, xdims);
  int out = glow_c2_out(c, op, 0);
  return glow_c2_infer(c, glow_c2_node(c, op, GLOW_OP_RESHAPE, "reshape", 2, (int[]){y, shape}, 1, &out));
}

/* SpatialBN with is_test=1: BatchNormalization with the running statistics. */
int glow_c2_emit_spatial_bn(glow_c2 *c, const glow_c2_op *op) {
  int64_t is_test;
  double eps;
  if (glow_c2_arg_int(op, "is_test", 0, &is_test) || glow_c2_arg_float(op, "epsilon", 1e-5, &eps) ||
      glow_c2_check_nchw(op))
    return -1;
  if (!is_test || op->def->n_output > 1)
    return glow_c2_err(op, "training mode (is_test=0, or the statistics outputs) is not supported; an inference "
                       "net sets is_test=1 and has one output");
  int in[5];
  for (int k = 0; k < 5; k++)
    if ((in[k] = glow_c2_in(c, op, k)) < 0)
      return -1;
  int y = glow_c2_out(c, op, 0);
  int node = glow_c2_node(c, op, GLOW_OP_BATCH_NORMALIZATION, NULL, 5, in, 1, &y);
  glow_c2_attr_float(c, node, "epsilon", eps);
  return glow_c2_infer(c, node);
}

/* LRN across channels: Caffe2's and ONNX's formulas agree (bias + alpha/size *
 * the sum of squares over size channels centred on c, to the power beta), but
 * Caffe2's defaults do not (alpha 0, beta 0): every attribute is written. */
int glow_c2_emit_lrn(glow_c2 *c, const glow_c2_op *op) {
  int x = glow_c2_in(c, op, 0);
  int64_t size;
  double alpha, beta, bias;
  if (x < 0 || glow_c2_check_nchw(op) || glow_c2_arg_int(op, "size", 0, &size) ||
      glow_c2_arg_float(op, "alpha", 0, &alpha) || glow_c2_arg_float(op, "beta", 0, &beta) ||
      glow_c2_arg_float(op, "bias", 1, &bias))
    return -1;
  if (size < 1)
    return glow_c2_err(op, "argument 'size' must be a positive integer");
  glow_c2_unproduced(c, op, 1);
  int y = glow_c2_out(c, op, 0);
  int node = glow_c2_node(c, op, GLOW_OP_LRN, NULL, 1, &x, 1, &y);
  glow_c2_attr_int(c, node, "size", size);
  glow_c2_attr_float(c, node, "alpha", alpha);
  glow_c2_attr_float(c, node, "beta", beta);
  glow_c2_attr_float(c, node, "bias", bias);
  return glow_c2_infer(c, node);
}
