/* TFLite's float convolutions, transposed convolutions, pooling, local
 * response normalization, fully connected layers and batched matrix products
 * as ONNX Conv, ConvTranspose, MaxPool, AveragePool, LRN (all in NCHW), Gemm
 * and MatMul. A filter's OHWI layout is the NHWC of a 4-D tensor, so its NCHW
 * copy is ONNX's OIHW; a depthwise filter (1, H, W, C*M) becomes (C*M, 1, H, W)
 * with C groups; a transposed convolution's (O, H, W, I) becomes (I, O, H, W).
 * SAME padding is TF's: the total split with the extra row or column at the end. */
#include "importer/tflite.h"

/* Options fields (tflite.fbs). */
enum { FC_ACT = 0 };
enum { TCONV_PADDING = 0, TCONV_STRIDE_W = 1, TCONV_STRIDE_H = 2, TCONV_ACT = 3 };
enum { LRN_RADIUS = 0, LRN_BIAS = 1, LRN_ALPHA = 2, LRN_BETA = 3 };
enum { BMM_ADJ_X = 0, BMM_ADJ_Y = 1 };

/* Conv (group from the filter's input channels) or, with depthwise, C groups of M. */
static int conv(glow_tfl *c, const glow_tfl_op *op, int depthwise) {
  glow_tfl_window w;
  glow_tfl_conv_window(op, depthwise, &w);
  if (glow_tfl_need_4d(c, op, 0, "input") || glow_tfl_need_4d(c, op, 1, "filter"))
    return -1;
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *f = glow_tfl_tensor_in(c, op, 1);
  w.kernel[0] = f->dims[1];
  w.kernel[1] = f->dims[2];
  int64_t pads[4], group = 1, in_hw[2] = {x->dims[1], x->dims[2]};
  if (glow_tfl_window_pads(c, op, &w, in_hw, pads))
    return -1;
  int in[3] = {glow_tfl_in(c, op, 0, GLOW_TFL_NCHW), -1, -1};
  in[1] = glow_tfl_conv_filter(c, op, depthwise, &group);
  if (op->nin > 2 && op->in[2] >= 0)
    in[2] = glow_tfl_in(c, op, 2, GLOW_TFL_NHWC);
  if (in[0] < 0 || in[1] < 0 || (op->nin > 2 && op->in[2] >= 0 && in[2] < 0))
    return -1;
  int y = glow_tfl_out_pre(c, op, 0, GLOW_TFL_NCHW, w.act);
  int node = glow_tfl_node(c, op, GLOW_OP_CONV, w.act ? "conv" : NULL, in[2] >= 0 ? 3 : 2, in, 1, &y);
  glow_tfl_window_attrs(c, node, &w, pads, 1);
  glow_tfl_attr_int(c, node, "group", group);
  return glow_tfl_infer(c, node) || glow_tfl_activation(c, op, y, w.act, 0, GLOW_TFL_NCHW) ? -1 : 0;
}

static int emit_conv(glow_tfl *c, const glow_tfl_op *op) { return conv(c, op, 0); }
static int emit_depthwise(glow_tfl *c, const glow_tfl_op *op) { return conv(c, op, 1); }

static int pool(glow_tfl *c, const glow_tfl_op *op, glow_op kind) {
  glow_tfl_window w;
  glow_tfl_pool_window(op, &w);
  if (glow_tfl_need_4d(c, op, 0, "input"))
    return -1;
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  int64_t pads[4], in_hw[2] = {x->dims[1], x->dims[2]};
  if (glow_tfl_window_pads(c, op, &w, in_hw, pads))
    return -1;
  int in = glow_tfl_in(c, op, 0, GLOW_TFL_NCHW);
  if (in < 0)
    return -1;
  int y = glow_tfl_out_pre(c, op, 0, GLOW_TFL_NCHW, w.act);
  int node = glow_tfl_node(c, op, kind, w.act ? "pool" : NULL, 1, &in, 1, &y);
  glow_tfl_window_attrs(c, node, &w, pads, 0); /* AveragePool leaves padding out of the count, as TFLite does */
  return glow_tfl_infer(c, node) || glow_tfl_activation(c, op, y, w.act, 0, GLOW_TFL_NCHW) ? -1 : 0;
}

static int emit_avgpool(glow_tfl *c, const glow_tfl_op *op) { return pool(c, op, GLOW_OP_AVERAGE_POOL); }
static int emit_maxpool(glow_tfl *c, const glow_tfl_op *op) { return pool(c, op, GLOW_OP_MAX_POOL); }

/* y = x W^T + b on x flattened to rows of W's width; keep_num_dims keeps x's leading dims. */
static int emit_fc(glow_tfl *c, const glow_tfl_op *op) {
  int64_t act = glow_fb_int(&op->opts, FC_ACT, 1, 0);
  const glow_tfl_tensor *out = glow_tfl_tensor_out(c, op, 0);
  int in[3] = {glow_tfl_fc_rows(c, op), -1, -1};
  if (in[0] < 0 || (in[1] = glow_tfl_in(c, op, 1, GLOW_TFL_NHWC)) < 0)
    return -1;
  if (op->nin > 2 && op->in[2] >= 0 && (in[2] = glow_tfl_in(c, op, 2, GLOW_TFL_NHWC)) < 0)
    return -1;
  int keep = out->rank != 2;
  int y = keep ? glow_tfl_tmp(c, op, "gemm") : glow_tfl_out_pre(c, op, 0, GLOW_TFL_NHWC, act);
  int node = glow_tfl_node(c, op, GLOW_OP_GEMM, keep || act ? "gemm" : NULL, in[2] >= 0 ? 3 : 2, in, 1, &y);
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

/* TF's transposed convolution adds input pixel (y, x)'s taps at (y * stride - top, x * stride -
 * left), top and left being the padding of the forward convolution from an output_shape-sized
 * input; past the taps the output is 0 (and the bias). So: ConvTranspose with those begin pads,
 * end pads trimming the taps to output_shape, or output_padding where they end short of it. */
static int emit_transpose_conv(glow_tfl *c, const glow_tfl_op *op) {
  const glow_fb_table *o = &op->opts;
  glow_tfl_window w = {.padding = glow_fb_int(o, TCONV_PADDING, 1, 0),
                       .stride = {glow_fb_int(o, TCONV_STRIDE_H, 4, 0), glow_fb_int(o, TCONV_STRIDE_W, 4, 0)},
                       .dilation = {1, 1},
                       .act = glow_fb_int(o, TCONV_ACT, 1, 0)};
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 2), *f = glow_tfl_tensor_in(c, op, 1);
  if (glow_tfl_need_4d(c, op, 1, "filter"))
    return -1;
  if (!x || x->rank != 4)
    return glow_tfl_err(c, op, "has an input (input 2) of rank %d; it must be 4-D (NHWC)", x ? x->rank : 0);
  int64_t shape[4];
  int n = glow_tfl_in_ints(c, op, 0, shape, 4);
  if (n < 0)
    return -1;
  if (n != 4 || shape[0] != x->dims[0] || shape[3] != f->dims[0] || x->dims[3] != f->dims[3])
    return glow_tfl_err(c, op, "must have an output_shape (input 0) of 4 values, with the input's batch and the "
                        "filter's output channels, and a filter (O, H, W, I) with the input's %lld channels",
                        (long long)x->dims[3]);
  w.kernel[0] = f->dims[1];
  w.kernel[1] = f->dims[2];
  int64_t pads[4], out_pad[2] = {0, 0}, out_hw[2] = {shape[1], shape[2]};
  if (glow_tfl_window_pads(c, op, &w, out_hw, pads))
    return -1;
  for (int d = 0; d < 2; d++) {
    int64_t end = w.stride[d] * (x->dims[1 + d] - 1) + w.kernel[d] - pads[d] - out_hw[d];
    pads[2 + d] = end > 0 ? end : 0;
    out_pad[d] = end < 0 ? -end : 0;
  }
  static const int64_t to_iohw[4] = {3, 0, 1, 2};
  int in[3] = {glow_tfl_in(c, op, 2, GLOW_TFL_NCHW), glow_tfl_in_perm(c, op, 1, to_iohw, "filter"), -1};
  int bias = op->nin > 3 && op->in[3] >= 0;
  if (bias)
    in[2] = glow_tfl_in(c, op, 3, GLOW_TFL_NHWC);
  if (in[0] < 0 || in[1] < 0 || (bias && in[2] < 0))
    return -1;
  int y = glow_tfl_out_pre(c, op, 0, GLOW_TFL_NCHW, w.act);
  int node = glow_tfl_node(c, op, GLOW_OP_CONV_TRANSPOSE, w.act ? "conv_transpose" : NULL, bias ? 3 : 2, in, 1, &y);
  glow_tfl_window_attrs(c, node, &w, pads, 0);
  if (out_pad[0] || out_pad[1])
    glow_tfl_attr_ints(c, node, "output_padding", out_pad, 2);
  return glow_tfl_infer(c, node) || glow_tfl_activation(c, op, y, w.act, 0, GLOW_TFL_NCHW) ? -1 : 0;
}

/* TF's x / (bias + alpha * sum of x^2 over channels c - radius ... c + radius)^beta is ONNX's
 * LRN of size 2 * radius + 1, whose alpha is divided by the size. */
static int emit_lrn(glow_tfl *c, const glow_tfl_op *op) {
  int64_t radius = glow_fb_int(&op->opts, LRN_RADIUS, 4, 0);
  if (glow_tfl_need_4d(c, op, 0, "input"))
    return -1;
  if (radius < 0)
    return glow_tfl_err(c, op, "has radius %lld; it must be 0 or more", (long long)radius);
  int x = glow_tfl_in(c, op, 0, GLOW_TFL_NCHW);
  if (x < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, GLOW_TFL_NCHW);
  int node = glow_tfl_node(c, op, GLOW_OP_LRN, NULL, 1, &x, 1, &y);
  glow_tfl_attr_int(c, node, "size", 2 * radius + 1);
  glow_tfl_attr_float(c, node, "alpha", (double)glow_fb_float(&op->opts, LRN_ALPHA, 0) * (double)(2 * radius + 1));
  glow_tfl_attr_float(c, node, "beta", glow_fb_float(&op->opts, LRN_BETA, 0));
  glow_tfl_attr_float(c, node, "bias", glow_fb_float(&op->opts, LRN_BIAS, 0));
  return glow_tfl_infer(c, node);
}

/* MatMul (numpy's broadcast of the batch axes, as TFLite's); adj_x and adj_y transpose the
 * last two axes of an input first. */
static int emit_batch_matmul(glow_tfl *c, const glow_tfl_op *op) {
  int in[2];
  for (int k = 0; k < 2; k++) {
    const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
    if (t->rank < 2)
      return glow_tfl_err(c, op, "has input %d ('%s') of rank %d; it must have 2 axes or more", k, t->name, t->rank);
    if (glow_fb_int(&op->opts, k ? BMM_ADJ_Y : BMM_ADJ_X, 1, 0)) {
      int64_t perm[GLOW_MAX_RANK];
      for (int d = 0; d < t->rank; d++)
        perm[d] = d;
      perm[t->rank - 2] = t->rank - 1;
      perm[t->rank - 1] = t->rank - 2;
      in[k] = glow_tfl_in_perm(c, op, k, perm, k ? "adj_y" : "adj_x");
    } else {
      in[k] = glow_tfl_in(c, op, k, GLOW_TFL_NHWC);
    }
    if (in[k] < 0)
      return -1;
  }
  int y = glow_tfl_out(c, op, 0, GLOW_TFL_NHWC);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_MAT_MUL, NULL, 2, in, 1, &y));
}

const glow_tfl_op_info glow_tfl_ops_nn[] = {
    {.code = 1, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_avgpool},     /* AVERAGE_POOL_2D */
    {.code = 3, .min_in = 2, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_conv},        /* CONV_2D */
    {.code = 4, .min_in = 2, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_depthwise},   /* DEPTHWISE_CONV_2D */
    {.code = 9, .min_in = 2, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_fc},          /* FULLY_CONNECTED */
    {.code = 13, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_lrn},        /* LOCAL_RESPONSE_NORMALIZATION */
    {.code = 17, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_maxpool},    /* MAX_POOL_2D */
    {.code = 67, .min_in = 3, .max_in = 4, .min_out = 1, .max_out = 1, .emit = emit_transpose_conv}, /* TRANSPOSE_CONV */
    {.code = 126, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_batch_matmul}, /* BATCH_MATMUL */
    {.code = -1},
};
