/* TFLite's int8 convolutions, fully connected layers, pooling and MEAN as
 * ONNX's QLinearConv and QLinearMatMul (int32 bias, per-channel weight scales:
 * quantized_dimension 0 of a filter or of FC weights, 3 of a depthwise filter,
 * the output channels either way), MaxPool on int8, com.microsoft's
 * QLinearAveragePool and QLinearGlobalAveragePool, in NCHW as the float ones
 * (tflite-nn.c). Fused activations clamp in the quantized domain. */
#include "importer/tflite.h"

enum { FC_ACT = 0 };
enum { REDUCER_KEEP_DIMS = 0 };

/* in[0..7] = the three (scale, zero point) pairs of input 0, weights (input 1) and output 0. */
static int qlinear_params(glow_tfl *c, const glow_tfl_op *op, int qdim, int64_t n, int *in) {
  return glow_tfl_qparams(c, op, op->in[0], &in[1], &in[2]) || glow_tfl_qweights(c, op, 1, qdim, n, &in[4], &in[5]) ||
                 glow_tfl_qparams(c, op, op->out[0], &in[6], &in[7])
             ? -1
             : 0;
}

static int qconv(glow_tfl *c, const glow_tfl_op *op, int depthwise) {
  glow_tfl_window w;
  glow_tfl_conv_window(op, depthwise, &w);
  if (glow_tfl_need_4d(c, op, 0, "input") || glow_tfl_need_4d(c, op, 1, "filter"))
    return -1;
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *f = glow_tfl_tensor_in(c, op, 1);
  w.kernel[0] = f->dims[1];
  w.kernel[1] = f->dims[2];
  int64_t pads[4], group, in_hw[2] = {x->dims[1], x->dims[2]}, m = f->dims[depthwise ? 3 : 0];
  if (glow_tfl_window_pads(c, op, &w, in_hw, pads))
    return -1;
  int in[9];
  in[3] = glow_tfl_conv_filter(c, op, depthwise, &group);
  in[0] = glow_tfl_in(c, op, 0, GLOW_TFL_NCHW);
  if (in[0] < 0 || in[3] < 0 || qlinear_params(c, op, depthwise ? 3 : 0, m, in) ||
      glow_tfl_qbias(c, op, 2, 1, m, &in[8]))
    return -1;
  int y = glow_tfl_qout_pre(c, op, 0, GLOW_TFL_NCHW, w.act);
  if (y < 0)
    return -1;
  int node = glow_tfl_node(c, op, GLOW_OP_QLINEAR_CONV, "conv", in[8] >= 0 ? 9 : 8, in, 1, &y);
  glow_tfl_window_attrs(c, node, &w, pads, 1);
  glow_tfl_attr_int(c, node, "group", group);
  return glow_tfl_infer(c, node) || glow_tfl_qactivation(c, op, y, w.act, 0, GLOW_TFL_NCHW) ? -1 : 0;
}

int glow_tfl_q_conv(glow_tfl *c, const glow_tfl_op *op) { return qconv(c, op, 0); }
int glow_tfl_q_depthwise(glow_tfl *c, const glow_tfl_op *op) { return qconv(c, op, 1); }

/* y = x W^T + b as QLinearMatMul of x's rows and W^T (a transposed copy), then the
 * output's declared shape. */
int glow_tfl_q_fc(glow_tfl *c, const glow_tfl_op *op) {
  int64_t act = glow_fb_int(&op->opts, FC_ACT, 1, 0);
  const glow_tfl_tensor *wt = glow_tfl_tensor_in(c, op, 1), *out = glow_tfl_tensor_out(c, op, 0);
  static const int64_t swap[2] = {1, 0};
  int in[9];
  if ((in[0] = glow_tfl_fc_rows(c, op)) < 0 || (in[3] = glow_tfl_in_perm(c, op, 1, swap, "weights")) < 0 ||
      qlinear_params(c, op, 0, wt->dims[0], in) || glow_tfl_qbias(c, op, 2, 1, wt->dims[0], &in[8]))
    return -1;
  int keep = out->rank != 2;
  int y = keep ? glow_tfl_tmp(c, op, "matmul") : glow_tfl_qout_pre(c, op, 0, GLOW_TFL_NHWC, act);
  if (y < 0)
    return -1;
  if (glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_QLINEAR_MAT_MUL, "matmul", in[8] >= 0 ? 9 : 8, in, 1, &y)))
    return -1;
  if (keep) { /* back to the output's declared shape */
    int r[2] = {y, glow_tfl_const_ints(c, op, "shape", out->rank, out->dims)};
    y = glow_tfl_qout_pre(c, op, 0, GLOW_TFL_NHWC, act);
    if (y < 0 || glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_RESHAPE, "reshape", 2, r, 1, &y)))
      return -1;
  }
  return glow_tfl_qactivation(c, op, y, act, 0, GLOW_TFL_NHWC);
}

/* MaxPool on int8 (TFLite's takes the output's parameters to be the input's), or
 * QLinearAveragePool, which leaves padding out of the count as TFLite does. */
static int qpool(glow_tfl *c, const glow_tfl_op *op, int avg) {
  glow_tfl_window w;
  glow_tfl_pool_window(op, &w);
  if (glow_tfl_need_4d(c, op, 0, "input"))
    return -1;
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *yt = glow_tfl_tensor_out(c, op, 0);
  int64_t pads[4], in_hw[2] = {x->dims[1], x->dims[2]};
  if (glow_tfl_window_pads(c, op, &w, in_hw, pads))
    return -1;
  int in[5] = {glow_tfl_in(c, op, 0, GLOW_TFL_NCHW), -1, -1, -1, -1};
  if (in[0] < 0 || (avg && (glow_tfl_qparams(c, op, op->in[0], &in[1], &in[2]) ||
                            glow_tfl_qparams(c, op, op->out[0], &in[3], &in[4]))))
    return -1;
  if (!avg && (yt->dt != x->dt || yt->nq != 1 || x->nq != 1 || yt->scale[0] != x->scale[0] ||
               yt->zero[0] != x->zero[0]))
    return glow_tfl_q_island(c, op); /* not as TFLite's converter writes it */
  int y = glow_tfl_qout_pre(c, op, 0, GLOW_TFL_NCHW, w.act);
  if (y < 0)
    return -1;
  glow_op kind = avg ? GLOW_OP_QLINEAR_AVERAGE_POOL : GLOW_OP_MAX_POOL;
  int node = glow_tfl_node(c, op, kind, "pool", avg ? 5 : 1, in, 1, &y);
  glow_tfl_window_attrs(c, node, &w, pads, 0);
  return glow_tfl_infer(c, node) || glow_tfl_qactivation(c, op, y, w.act, 0, GLOW_TFL_NCHW) ? -1 : 0;
}

int glow_tfl_q_avgpool(glow_tfl *c, const glow_tfl_op *op) { return qpool(c, op, 1); }
int glow_tfl_q_maxpool(glow_tfl *c, const glow_tfl_op *op) { return qpool(c, op, 0); }

/* MEAN over H and W of a 4-D input: QLinearGlobalAveragePool (then the output's shape
 * when keep_dims is off). Other axes: a float island. */
int glow_tfl_q_mean(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *out = glow_tfl_tensor_out(c, op, 0);
  int64_t axes[GLOW_MAX_RANK], keep = glow_fb_int(&op->opts, REDUCER_KEEP_DIMS, 1, 0), hw = 0;
  int na = glow_tfl_in_ints(c, op, 1, axes, GLOW_MAX_RANK);
  if (na < 0)
    return -1;
  for (int i = 0; i < na; i++) {
    if (axes[i] < -x->rank || axes[i] >= x->rank)
      return glow_tfl_err(c, op, "has axis %lld for an input of rank %d", (long long)axes[i], x->rank);
    axes[i] = axes[i] < 0 ? axes[i] + x->rank : axes[i];
    hw |= (int64_t)1 << axes[i];
  }
  if (x->rank == 4 && hw == 6) {
    int in[5], y;
    in[0] = glow_tfl_in(c, op, 0, GLOW_TFL_NCHW);
    if (in[0] < 0 || glow_tfl_qparams(c, op, op->in[0], &in[1], &in[2]) ||
        glow_tfl_qparams(c, op, op->out[0], &in[3], &in[4]))
      return -1;
    y = keep ? glow_tfl_out(c, op, 0, GLOW_TFL_NCHW) : glow_tfl_tmp(c, op, "pool");
    int node = glow_tfl_node(c, op, GLOW_OP_QLINEAR_GLOBAL_AVERAGE_POOL, keep ? NULL : "pool", 5, in, 1, &y);
    if (glow_tfl_infer(c, node))
      return -1;
    if (keep)
      return 0;
    int r[2] = {y, glow_tfl_const_ints(c, op, "shape", out->rank, out->dims)};
    y = glow_tfl_out(c, op, 0, GLOW_TFL_NHWC);
    return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_RESHAPE, NULL, 2, r, 1, &y));
  }
  return glow_tfl_q_island(c, op);
}
