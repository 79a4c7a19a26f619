/* TFLite's float convolutions, pooling and fully connected layers as ONNX
 * Conv, MaxPool, AveragePool and Gemm, in NCHW. A filter's OHWI layout is the
 * NHWC of a 4-D tensor, so its NCHW copy is ONNX's OIHW; a depthwise filter
 * (1, H, W, C*M) becomes (C*M, 1, H, W) with C groups. SAME padding is TF's:
 * the total split with the extra row or column at the end. */
#include "importer/tflite.h"

/* Options fields (tflite.fbs). */
enum { CONV_PADDING = 0, CONV_STRIDE_W = 1, CONV_STRIDE_H = 2, CONV_ACT = 3, CONV_DIL_W = 4, CONV_DIL_H = 5 };
enum { DW_PADDING = 0, DW_STRIDE_W = 1, DW_STRIDE_H = 2, DW_MULT = 3, DW_ACT = 4, DW_DIL_W = 5, DW_DIL_H = 6 };
enum { POOL_PADDING = 0, POOL_STRIDE_W = 1, POOL_STRIDE_H = 2, POOL_W = 3, POOL_H = 4, POOL_ACT = 5 };
enum { FC_ACT = 0, FC_WEIGHTS_FORMAT = 1, FC_KEEP_DIMS = 2 };

typedef struct {
  int64_t padding, stride[2], dilation[2], kernel[2], act;
} window;

/* Sets pads[4] (ONNX order: top, left, bottom, right) for input size in[2]; -1 after an error. */
static int window_pads(glow_tfl *c, const glow_tfl_op *op, const window *w, const int64_t *in, int64_t *pads) {
  for (int d = 0; d < 2; d++) {
    if (w->stride[d] < 1 || w->dilation[d] < 1 || w->kernel[d] < 1)
      return glow_tfl_err(c, op, "has stride %lld, dilation %lld and window %lld along %s; each must be 1 or more",
                          (long long)w->stride[d], (long long)w->dilation[d], (long long)w->kernel[d],
                          d ? "the width" : "the height");
    int64_t total = 0;
    if (w->padding == GLOW_TFL_PAD_SAME) {
      int64_t out = (in[d] + w->stride[d] - 1) / w->stride[d];
      total = (out - 1) * w->stride[d] + (w->kernel[d] - 1) * w->dilation[d] + 1 - in[d];
      total = total < 0 ? 0 : total;
    } else if (w->padding != GLOW_TFL_PAD_VALID) {
      return glow_tfl_err(c, op, "has padding %lld; TFLite's are SAME (0) and VALID (1)", (long long)w->padding);
    }
    pads[d] = total / 2;
    pads[d + 2] = total - total / 2;
  }
  return 0;
}

static void window_attrs(glow_tfl *c, int node, const window *w, const int64_t *pads, int dilations) {
  glow_tfl_attr_ints(c, node, "kernel_shape", w->kernel, 2);
  glow_tfl_attr_ints(c, node, "strides", w->stride, 2);
  glow_tfl_attr_ints(c, node, "pads", pads, 4);
  if (dilations)
    glow_tfl_attr_ints(c, node, "dilations", w->dilation, 2);
}

/* 4-D input k, else an error naming it. */
static int need_4d(glow_tfl *c, const glow_tfl_op *op, int k, const char *what) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
  if (!t || t->rank != 4)
    return glow_tfl_err(c, op, "the %s%s%s%s has rank %d; it must be 4-D (%s)", what, t ? " ('" : "", t ? t->name : "",
                        t ? "')" : "", t ? t->rank : 0, k ? "OHWI" : "NHWC");
  return 0;
}

/* Conv (group from the filter's input channels) or, with depthwise, C groups of M. */
static int conv(glow_tfl *c, const glow_tfl_op *op, int depthwise) {
  const glow_fb_table *o = &op->opts;
  window w = {.padding = glow_fb_int(o, depthwise ? DW_PADDING : CONV_PADDING, 1, 0),
              .stride = {glow_fb_int(o, depthwise ? DW_STRIDE_H : CONV_STRIDE_H, 4, 0),
                         glow_fb_int(o, depthwise ? DW_STRIDE_W : CONV_STRIDE_W, 4, 0)},
              .dilation = {glow_fb_int(o, depthwise ? DW_DIL_H : CONV_DIL_H, 4, 1),
                           glow_fb_int(o, depthwise ? DW_DIL_W : CONV_DIL_W, 4, 1)},
              .act = glow_fb_int(o, depthwise ? DW_ACT : CONV_ACT, 1, 0)};
  if (need_4d(c, op, 0, "input") || need_4d(c, op, 1, "filter"))
    return -1;
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *f = glow_tfl_tensor_in(c, op, 1);
  w.kernel[0] = f->dims[1];
  w.kernel[1] = f->dims[2];
  int64_t pads[4], group = 1, in_hw[2] = {x->dims[1], x->dims[2]};
  if (window_pads(c, op, &w, in_hw, pads))
    return -1;
  int in[3] = {glow_tfl_in(c, op, 0, GLOW_TFL_NCHW), -1, -1};
  if (depthwise) {
    static const int64_t to_mchw[4] = {3, 0, 1, 2};
    if (f->dims[0] != 1 || !x->dims[3] || f->dims[3] % x->dims[3])
      return glow_tfl_err(c, op, "has a %lldx%lldx%lldx%lld filter for %lld input channels; a depthwise filter is "
                          "1 x H x W x (channels times the multiplier)", (long long)f->dims[0], (long long)f->dims[1],
                          (long long)f->dims[2], (long long)f->dims[3], (long long)x->dims[3]);
    group = x->dims[3];
    in[1] = glow_tfl_in_perm(c, op, 1, to_mchw, "filter");
  } else {
    if (!f->dims[3] || x->dims[3] % f->dims[3])
      return glow_tfl_err(c, op, "has filters of %lld input channels for an input of %lld", (long long)f->dims[3],
                          (long long)x->dims[3]);
    group = x->dims[3] / f->dims[3];
    in[1] = glow_tfl_in(c, op, 1, GLOW_TFL_NCHW);
  }
  if (op->nin > 2 && op->in[2] >= 0)
    in[2] = glow_tfl_in(c, op, 2, GLOW_TFL_NHWC);
  if (in[0] < 0 || in[1] < 0 || (op->nin > 2 && op->in[2] >= 0 && in[2] < 0))
    return -1;
  int y = glow_tfl_out_pre(c, op, 0, GLOW_TFL_NCHW, w.act);
  int node = glow_tfl_node(c, op, GLOW_OP_CONV, w.act ? "conv" : NULL, in[2] >= 0 ? 3 : 2, in, 1, &y);
  window_attrs(c, node, &w, pads, 1);
  glow_tfl_attr_int(c, node, "group", group);
  return glow_tfl_infer(c, node) || glow_tfl_activation(c, op, y, w.act, 0, GLOW_TFL_NCHW) ? -1 : 0;
}

static int emit_conv(glow_tfl *c, const glow_tfl_op *op) { return conv(c, op, 0); }
static int emit_depthwise(glow_tfl *c, const glow_tfl_op *op) { return conv(c, op, 1); }

static int pool(glow_tfl *c, const glow_tfl_op *op, glow_op kind) {
  const glow_fb_table *o = &op->opts;
  window w = {.padding = glow_fb_int(o, POOL_PADDING, 1, 0),
              .stride = {glow_fb_int(o, POOL_STRIDE_H, 4, 0), glow_fb_int(o, POOL_STRIDE_W, 4, 0)},
              .dilation = {1, 1},
              .kernel = {glow_fb_int(o, POOL_H, 4, 0), glow_fb_int(o, POOL_W, 4, 0)},
              .act = glow_fb_int(o, POOL_ACT, 1, 0)};
  if (need_4d(c, op, 0, "input"))
    return -1;
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  int64_t pads[4], in_hw[2] = {x->dims[1], x->dims[2]};
  if (window_pads(c, op, &w, in_hw, pads))
    return -1;
  int in = glow_tfl_in(c, op, 0, GLOW_TFL_NCHW);
  if (in < 0)
    return -1;
  int y = glow_tfl_out_pre(c, op, 0, GLOW_TFL_NCHW, w.act);
  int node = glow_tfl_node(c, op, kind, w.act ? "pool" : NULL, 1, &in, 1, &y);
  window_attrs(c, node, &w, pads, 0); /* AveragePool leaves padding out of the count, as TFLite does */
  return glow_tfl_infer(c, node) || glow_tfl_activation(c, op, y, w.act, 0, GLOW_TFL_NCHW) ? -1 : 0;
}

static int emit_avgpool(glow_tfl *c, const glow_tfl_op *op) { return pool(c, op, GLOW_OP_AVERAGE_POOL); }
static int emit_maxpool(glow_tfl *c, const glow_tfl_op *op) { return pool(c, op, GLOW_OP_MAX_POOL); }

/* y = x W^T + b on x flattened to rows of W's width; keep_num_dims keeps x's leading dims. */
static int emit_fc(glow_tfl *c, const glow_tfl_op *op) {
  int64_t act = glow_fb_int(&op->opts, FC_ACT, 1, 0);
  if (glow_fb_int(&op->opts, FC_WEIGHTS_FORMAT, 1, 0))
    return glow_tfl_err(c, op, "has shuffled weights (SHUFFLED4x16INT8), which glowc does not read");
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *wt = glow_tfl_tensor_in(c, op, 1),
                        *out = glow_tfl_tensor_out(c, op, 0);
  if (!wt || wt->rank != 2 || !wt->dims[1])
    return glow_tfl_err(c, op, "has weights of rank %d; they must be 2-D (outputs x inputs)", wt ? wt->rank : 0);
  int64_t n = 1;
  for (int d = 0; d < x->rank; d++)
    n *= x->dims[d];
  if (n % wt->dims[1])
    return glow_tfl_err(c, op, "has an input of %lld elements, not rows of the weights' %lld", (long long)n,
                        (long long)wt->dims[1]);
  int64_t rows[2] = {n / wt->dims[1], wt->dims[1]};
  int in[3] = {glow_tfl_in(c, op, 0, GLOW_TFL_NHWC), glow_tfl_in(c, op, 1, GLOW_TFL_NHWC), -1};
  if (op->nin > 2 && op->in[2] >= 0)
    in[2] = glow_tfl_in(c, op, 2, GLOW_TFL_NHWC);
  if (in[0] < 0 || in[1] < 0 || (op->nin > 2 && op->in[2] >= 0 && in[2] < 0))
    return -1;
  int shape[2] = {in[0], glow_tfl_const_ints(c, op, "rows", 2, rows)};
  int flat = glow_tfl_tmp(c, op, "rows");
  int node = glow_tfl_node(c, op, GLOW_OP_RESHAPE, "rows", 2, shape, 1, &flat);
  if (glow_tfl_infer(c, node))
    return -1;
  in[0] = flat;
  int keep = out->rank != 2;
  int y = keep ? glow_tfl_tmp(c, op, "gemm") : glow_tfl_out_pre(c, op, 0, GLOW_TFL_NHWC, act);
  node = glow_tfl_node(c, op, GLOW_OP_GEMM, keep || act ? "gemm" : NULL, in[2] >= 0 ? 3 : 2, in, 1, &y);
  glow_tfl_attr_int(c, node, "transB", 1);
  if (glow_tfl_infer(c, node))
    return -1;
  if (keep) { /* back to the output's declared shape */
    int r[2] = {y, glow_tfl_const_ints(c, op, "shape", out->rank, out->dims)};
    y = glow_tfl_out_pre(c, op, 0, GLOW_TFL_NHWC, act);
    node = glow_tfl_node(c, op, GLOW_OP_RESHAPE, act ? "reshape" : NULL, 2, r, 1, &y);
    if (glow_tfl_infer(c, node))
      return -1;
  }
  return glow_tfl_activation(c, op, y, act, 0, GLOW_TFL_NHWC);
}

const glow_tfl_op_info glow_tfl_ops_nn[] = {
    {.code = 1, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_avgpool},     /* AVERAGE_POOL_2D */
    {.code = 3, .min_in = 2, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_conv},        /* CONV_2D */
    {.code = 4, .min_in = 2, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_depthwise},   /* DEPTHWISE_CONV_2D */
    {.code = 9, .min_in = 2, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_fc},          /* FULLY_CONNECTED */
    {.code = 17, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_maxpool},    /* MAX_POOL_2D */
    {.code = -1},
};
