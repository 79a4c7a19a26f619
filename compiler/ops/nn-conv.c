/* Conv, ConvInteger and QLinearConv: N x C x D1.. input, M x C/group x K1.. weights. */
#include <stdlib.h>
#include <string.h>

#include "ops/nn-util.h"
#include "ops/quant-util.h"

typedef struct {
  int64_t N, C, M, G, Cg, Mg;
  glow_nn_win w;
} conv_shape;

/* Where W is: input 3 of QLinearConv, input 1 of the others. */
static int w_index(const glow_node *n) { return n->op == GLOW_OP_QLINEAR_CONV ? 3 : 1; }

/* QLinearConv's W after passes/pack-weights.c: M x K1.. x C4, input channels
 * innermost and padded to C4 = C/group rounded up to 4 (glow.w_layout = 1). */
static int w_channels_last(const glow_node *n) {
  return n->op == GLOW_OP_QLINEAR_CONV && glow_attr_int(n, "glow.w_layout", 0) == 1;
}

/* Shapes of X (input 0) and W; `integer`: the dtypes of ConvInteger and QLinearConv. */
static int conv_get(const glow_graph *g, const glow_node *n, int integer, conv_shape *c) {
  const glow_value *x = glow_in(g, n, 0), *w = glow_in(g, n, w_index(n));
  char s1[128], s2[128];
  if (integer) {
    int i16 = n->op == GLOW_OP_QLINEAR_CONV && x->dt == GLOW_DT_I16 && w->dt == GLOW_DT_I16;
    if (!i16 && (!glow_q_is_8bit(x->dt) || !glow_q_is_8bit(w->dt)))
      return glow_node_error(g, n, "input types %s and %s are not supported (uint8 or int8%s)", glow_dtype_name(x->dt),
                             glow_dtype_name(w->dt), n->op == GLOW_OP_QLINEAR_CONV ? "; or both int16" : "");
  } else if (x->dt != w->dt || (x->dt != GLOW_DT_F32 && x->dt != GLOW_DT_F64)) {
    return glow_node_error(g, n, "input types %s and %s are not supported (float or double, the same for X and W)",
                           glow_dtype_name(x->dt), glow_dtype_name(w->dt));
  }
  if (w->rank != x->rank)
    return glow_node_error(g, n, "X %s and W %s must have the same rank", glow_shape_str(x, s1, sizeof s1),
                           glow_shape_str(w, s2, sizeof s2));
  int last = w_channels_last(n);
  c->N = x->dims[0];
  c->C = x->dims[1];
  c->M = glow_attr_int(n, "glow.w_m", w->dims[0]); /* W's rows padded to whole panels: pack-conv-weights.c */
  c->G = glow_attr_int(n, "group", 1);
  int64_t wc = last ? w->dims[w->rank - 1] : w->dims[1], cg = c->G >= 1 ? c->C / c->G : 0;
  if (c->G < 1 || c->C % c->G || c->M % c->G || (last ? wc != (cg + 3) / 4 * 4 : wc != cg))
    return glow_node_error(g, n, "X %s and W %s do not match for group=%lld", glow_shape_str(x, s1, sizeof s1),
                           glow_shape_str(w, s2, sizeof s2), (long long)c->G);
  c->Cg = c->C / c->G;
  c->Mg = c->M / c->G;
  return glow_nn_win_get(g, n, x, w->dims + (last ? 1 : 2), 0, &c->w);
}

static void conv_out_shape(const conv_shape *c, int64_t *dims) {
  dims[0] = c->N;
  dims[1] = c->M;
  for (int i = 0; i < c->w.nsp; i++)
    dims[2 + i] = c->w.out[i];
}

static int infer_conv(glow_graph *g, glow_node *n) {
  conv_shape c;
  if (conv_get(g, n, 0, &c))
    return -1;
  if (n->nin > 3 && !glow_attr_find(n, "glow.residual"))
    return glow_node_error(g, n, "Conv takes at most 3 inputs (X, W, B), not %d", n->nin);
  const glow_value *b = glow_in(g, n, 2), *x = glow_in(g, n, 0);
  if (b && (b->dt != x->dt || glow_value_numel(b) != c.M || b->rank != 1))
    return glow_node_error(g, n, "B must be a %s vector of %lld elements", glow_dtype_name(x->dt), (long long)c.M);
  int64_t dims[5];
  conv_out_shape(&c, dims);
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, dims);
  return 0;
}

/* Reference: every output as a sum over its window, in double. */
/* 2-D: each output plane accumulated tap by tap over whole rows (the same sums
 * in another order, in double; fast enough to profile ImageNet models). */
static void conv_ref_2d(const conv_shape *c, const double *x, const double *wt, const double *b, double *y) {
  const glow_nn_win *w = &c->w;
  int64_t IH = w->in[0], IW = w->in[1], OH = w->out[0], OW = w->out[1], KH = w->k[0], KW = w->k[1];
  for (int64_t nn = 0; nn < c->N; nn++)
    for (int64_t m = 0; m < c->M; m++) {
      double *yp = y + (nn * c->M + m) * OH * OW;
      for (int64_t i = 0; i < OH * OW; i++)
        yp[i] = b ? b[m] : 0;
      for (int64_t ci = 0; ci < c->Cg; ci++) {
        const double *xp = x + (nn * c->C + m / c->Mg * c->Cg + ci) * IH * IW;
        for (int64_t kh = 0; kh < KH; kh++)
          for (int64_t kw = 0; kw < KW; kw++) {
            double wv = wt[((m * c->Cg + ci) * KH + kh) * KW + kw];
            /* the columns with 0 <= ow * s + off < IW */
            int64_t off = kw * w->d[1] - w->pb[1], s1 = w->s[1];
            int64_t lo = off >= 0 ? 0 : (-off + s1 - 1) / s1, hi = IW - 1 - off < 0 ? 0 : (IW - 1 - off) / s1 + 1;
            hi = hi < OW ? hi : OW;
            for (int64_t oh = 0; oh < OH; oh++) {
              int64_t ih = oh * w->s[0] + kh * w->d[0] - w->pb[0];
              if (ih < 0 || ih >= IH)
                continue;
              const double *xr = xp + ih * IW + kw * w->d[1] - w->pb[1];
              double *yr = yp + oh * OW;
              for (int64_t ow = lo; ow < hi; ow++)
                yr[ow] += xr[ow * w->s[1]] * wv;
            }
          }
      }
    }
}

static void conv_ref(const conv_shape *c, const double *x, const double *wt, const double *b, double *y) {
  const glow_nn_win *w = &c->w;
  int nsp = w->nsp;
  if (nsp == 2) {
    conv_ref_2d(c, x, wt, b, y);
    return;
  }
  int64_t isz = 1, osz = 1, ksz = 1;
  for (int i = 0; i < nsp; i++) {
    isz *= w->in[i];
    osz *= w->out[i];
    ksz *= w->k[i];
  }
  for (int64_t nn = 0; nn < c->N; nn++)
    for (int64_t m = 0; m < c->M; m++) {
      int64_t grp = m / c->Mg, op[3] = {0};
      do {
        double acc = b ? b[m] : 0;
        for (int64_t ci = 0; ci < c->Cg; ci++) {
          int64_t cc = grp * c->Cg + ci, kp[3] = {0};
          do {
            int64_t ip[3], ok = 1;
            for (int i = 0; i < nsp; i++) {
              ip[i] = op[i] * w->s[i] + kp[i] * w->d[i] - w->pb[i];
              ok &= ip[i] >= 0 && ip[i] < w->in[i];
            }
            if (ok)
              acc += x[(nn * c->C + cc) * isz + glow_nn_win_offset(nsp, w->in, ip)] *
                     wt[(m * c->Cg + ci) * ksz + glow_nn_win_offset(nsp, w->k, kp)];
          } while (glow_nn_win_next(nsp, w->k, kp));
        }
        y[(nn * c->M + m) * osz + glow_nn_win_offset(nsp, w->out, op)] = acc;
      } while (glow_nn_win_next(nsp, w->out, op));
    }
}

/* Input i as doubles, minus zero point z (per element of axis 0 when zdim > 1). */
static double *to_double(const glow_value *v, const void *data, const glow_value *z, const void *zdata) {
  int64_t e = glow_value_numel(v), zn = z ? glow_value_numel(z) : 0, inner = zn > 1 ? e / zn : e;
  double *d = glow_xmalloc(sizeof(double) * (size_t)(e ? e : 1));
  for (int64_t i = 0; i < e; i++) {
    if (glow_dtype_is_float(v->dt))
      d[i] = glow_elem_get(v->dt, data, i);
    else
      d[i] = (double)(glow_elem_geti(v->dt, data, i) - (z ? glow_elem_geti(z->dt, zdata, zn > 1 ? i / inner : 0) : 0));
  }
  return d;
}

static int eval_conv_common(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins,
                            int integer) {
  conv_shape c;
  if (conv_get(g, n, integer, &c))
    return -1;
  const glow_value *y = glow_out(g, n, 0);
  const void *in2 = glow_in(g, n, 2) ? ins[2] : NULL, *in3 = glow_in(g, n, 3) ? ins[3] : NULL;
  double *x = to_double(glow_in(g, n, 0), ins[0], integer ? glow_in(g, n, 2) : NULL, in2);
  double *w = to_double(glow_in(g, n, 1), ins[1], integer ? glow_in(g, n, 3) : NULL, in3);
  double *b = !integer && in2 ? to_double(glow_in(g, n, 2), in2, NULL, NULL) : NULL;
  int64_t e = glow_value_numel(y);
  double *out = glow_xmalloc(sizeof(double) * (size_t)(e ? e : 1));
  conv_ref(&c, x, w, b, out);
  for (int64_t i = 0; i < e; i++) {
    if (integer)
      glow_elem_seti(y->dt, outs[0], i, (int64_t)out[i]);
    else
      glow_elem_set(y->dt, outs[0], i, out[i]);
  }
  free(x);
  free(w);
  free(b);
  free(out);
  return 0;
}

static int eval_conv(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  GLOW_ASSERT(!glow_attr_find(n, "glow.epi") && !glow_attr_find(n, "glow.residual") &&
              !glow_attr_find(n, "glow.w_panel")); /* fused and packed when compiling only */
  return eval_conv_common(g, n, outs, ins, 0);
}

/* A float32 1x1 convolution with unit strides and no padding is a matrix
 * product per image and group: Y[m][pixel] = W[m][c] * X[c][pixel] + B[m]; it
 * runs as one (gemm.c) on planes larger than 14 x 14. On smaller planes, where
 * each weight serves few pixels and the weights (a MB or more in resnet50's last
 * stages) come from memory on every run, the conv kernel's panels, which stream
 * the weights in vectors, are faster where the output channels fill its 16-channel
 * blocks (in resnet50, at one thread on a Sapphire Rapids core: 2048 -> 512 on
 * 7 x 7 1.75 -> 0.92 ms, 256 -> 1024 on 14 x 14 0.99 -> 0.90; the model 74.5 ->
 * 64.3 ms). On 28 x 28 the product is still faster (128 -> 512: 0.77 against 0.86). */
#define POINTWISE_GEMM_MIN_PLANE 197
static int pointwise_as_matmul(const glow_graph *g, const glow_node *n, const conv_shape *c) {
  const glow_nn_win *w = &c->w;
  if (glow_in(g, n, 0)->dt != GLOW_DT_F32)
    return 0;
  int64_t P = 1;
  for (int i = 0; i < w->nsp; i++) {
    if (w->k[i] != 1 || w->s[i] != 1 || w->pb[i] || w->pe[i])
      return 0;
    P *= w->out[i];
  }
  /* Output channels not a multiple of 16: the product, but for one group of 256 or more
   * (squeezenet's 1000 classes: 1.15 -> 1.01 ms alone on Zen 5), whose panels are padded by
   * a few percent; on fewer (shufflenet's 116 and 232, mnasnet's 40) the padding cost more
   * than the panels gained (both models 4% slower). */
  return P >= POINTWISE_GEMM_MIN_PLANE || (c->Mg % 16 && (c->G != 1 || c->Mg < 256));
}

/* The fused epilogue (passes/fuse-epilogue.c): kind and bounds. */
glow_abi_epi glow_nn_conv_epi(const glow_node *n) {
  glow_abi_epi e = {glow_attr_int(n, "glow.epi", GLOW_EPI_NONE), glow_f2p((float)glow_attr_float(n, "glow.epi_a", 0.0)),
                    glow_f2p((float)glow_attr_float(n, "glow.epi_b", 0.0))};
  return e;
}

static void lower_pointwise(const glow_graph *g, const glow_node *n, const conv_shape *c, glow_kcall *kc) {
  const glow_nn_win *w = &c->w;
  int64_t P = 1;
  for (int i = 0; i < w->nsp; i++)
    P *= w->out[i];
  glow_nn_mm q;
  glow_nn_mm_init(&q);
  q.bd[2] = c->N;
  q.bd[3] = c->G;
  q.abs[3] = c->Mg * c->Cg;
  q.bbs[2] = c->C * P;
  q.bbs[3] = c->Cg * P;
  q.cbs[3] = c->Mg;
  q.M = c->Mg;
  q.N = P;
  q.K = c->Cg;
  q.ams = c->Cg;
  q.aks = 1;
  q.bks = P;
  q.bns = 1;
  q.beta = 1;
  q.cms = 1;
  glow_nn_mm_lower(&q, GLOW_DT_F32, n->out[0], n->in[1], n->in[0], glow_in(g, n, 2) ? n->in[2] : -1, kc);
  GLOW_ASSERT(kc->ntensors == 5 && kc->nparams == (int)GLOW_ABI_PARAMS(glow_abi_matmul));
  kc->tensors[4] = n->nin > 3 ? n->in[3] : -1; /* the epilogue: residual t[4] */
  ((glow_abi_matmul *)kc->params)->epi = glow_nn_conv_epi(n);
}

/* The kernel of a conv that is not a matrix product: float32 with enough output
 * channels per group to fill the fast kernel's channel vectors (its weight
 * panel holds 16 channels of at least one input channel's taps): "fast_";
 * narrow groups (depthwise) of 1-D and 2-D convolutions where the padded input
 * rows of one output row fit the plane kernel's buffer: "plane_" (buffer
 * sizes: conv.c), or, for depthwise convs of 16 channels or more, "dw16_"
 * (conv-dw.c: 16 channels to a vector where kernels/dw16.h's dw16_pays says so and
 * the target's registers and stack allow, else the plane kernel); the rest: "", the
 * direct kernel. */
static const char *conv_kind(const glow_graph *g, const glow_node *n, const conv_shape *c) {
  const glow_nn_win *w = &c->w;
  int last = w->nsp - 1;
  int64_t span = w->nsp > 1 ? (w->k[last - 1] - 1) * w->d[last - 1] + 1 : 1, taps = 1;
  int64_t plane = span * w->s[last] * (w->out[last] + (w->k[last] - 1) * w->d[last] / w->s[last] + 16);
  for (int i = 0; i < w->nsp; i++)
    taps *= w->k[i];
  return glow_in(g, n, 0)->dt != GLOW_DT_F32        ? ""
         : c->Mg >= 8 && taps * 16 <= 16384 ? "fast_"
         : w->nsp <= 2 && plane <= 16384 && c->Cg == 1 && c->Mg == 1 && c->G >= 16 ? "dw16_"
         : w->nsp <= 2 && plane <= 16384    ? "plane_"
                                            : "";
}

int glow_conv_panel_blocks(const glow_graph *g, const glow_node *n, int max_blocks) {
  conv_shape c;
  const glow_value *w = glow_in(g, n, 1);
  if (n->op != GLOW_OP_CONV || !w || w->kind != GLOW_VAL_CONST || glow_attr_find(n, "glow.w_panel") ||
      conv_get(g, n, 0, &c) || pointwise_as_matmul(g, n, &c) || strcmp(conv_kind(g, n, &c), "fast_") ||
      (c.Mg % 16 && c.G != 1))
    return 0;
  /* Output channels not a multiple of 16 (squeezenet's 1000-class conv): one group only, its
   * last panel padded with zero rows (the kernel stores only the real channels). */
  if (c.Mg % 16)
    return max_blocks >= 4 && c.Mg >= 64 ? 4 : max_blocks >= 2 && c.Mg >= 32 ? 2 : 1;
  return max_blocks >= 4 && c.Mg % 64 == 0 ? 4 : max_blocks >= 2 && c.Mg % 32 == 0 ? 2 : 1;
}

int glow_conv_winograd_fit(const glow_graph *g, const glow_node *n, int max_blocks, int min_outputs, int64_t pads[4]) {
  conv_shape c;
  const glow_value *w = glow_in(g, n, 1);
  if (n->op != GLOW_OP_CONV || !w || w->kind != GLOW_VAL_CONST || glow_in(g, n, 0)->dt != GLOW_DT_F32 ||
      glow_attr_find(n, "glow.w_panel") || conv_get(g, n, 0, &c) || c.w.nsp != 2 || c.G != 1 || c.M % 16 || c.C < 8)
    return 0;
  for (int i = 0; i < 2; i++)
    if (c.w.k[i] != 3 || c.w.s[i] != 1 || c.w.d[i] != 1 || c.w.pb[i] > 2 || c.w.pe[i] > 2 || c.w.out[i] < 8)
      return 0;
  /* Planes of 14 x 14 and more (min_outputs: glow_target_winograd): on smaller ones the 6x6
   * patches of 4x4 tiles cover mostly padding, and the weights, 4 times their size, are read
   * for few outputs. */
  if (c.w.out[0] * c.w.out[1] < min_outputs)
    return 0;
  pads[0] = c.w.pb[0], pads[1] = c.w.pb[1], pads[2] = c.w.pe[0], pads[3] = c.w.pe[1];
  return max_blocks >= 4 && c.M % 64 == 0 ? 4 : max_blocks >= 2 && c.M % 32 == 0 ? 2 : 1;
}

int glow_conv_f32_abi(const glow_graph *g, const glow_node *n, glow_abi_conv *a) {
  conv_shape c;
  int64_t nb = glow_attr_int(n, "glow.w_panel", 0);
  if (conv_get(g, n, 0, &c) || glow_in(g, n, 0)->dt != GLOW_DT_F32)
    return -1;
  glow_abi_conv r = {.N = c.N, .G = c.G, .Cg = c.Cg, .Mg = c.Mg, .w = glow_nn_win_abi(&c.w), .epi = glow_nn_conv_epi(n),
                     .panel_blocks = nb};
  *a = r;
  return 0;
}

static int lower_conv(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  conv_shape c;
  if (conv_get(g, n, 0, &c))
    return -1;
  if (pointwise_as_matmul(g, n, &c)) {
    lower_pointwise(g, n, &c, kc);
    return 0;
  }
  int64_t nb = glow_attr_int(n, "glow.w_panel", 0); /* W packed: passes/pack-conv-weights.c */
  int f32 = glow_in(g, n, 0)->dt == GLOW_DT_F32;
  if (nb)
    glow_kcall_init(kc, "glow_k_conv_packed_f32");
  else
    glow_kcall_init(kc, "glow_k_conv_%s%s", conv_kind(g, n, &c), glow_dtype_suffix(glow_in(g, n, 0)->dt));
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 3; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_abi_conv a = {.N = c.N, .G = c.G, .Cg = c.Cg, .Mg = c.Mg, .w = glow_nn_win_abi(&c.w), .panel_blocks = nb};
  if (f32) { /* the epilogue (kernels/epilogue.h): residual t[4] */
    glow_kcall_tensor(kc, n->nin > 3 ? n->in[3] : -1);
    a.epi = glow_nn_conv_epi(n);
  }
  glow_kcall_abi(kc, &a, nb ? sizeof a : f32 ? offsetof(glow_abi_conv, panel_blocks) : offsetof(glow_abi_conv, epi));
  return 0;
}

const glow_op_info glow_op_CONV = {"Conv", 2, 4, 1, 1, infer_conv, eval_conv, lower_conv}; /* input 3: fused residual */

/* ConvInteger: int32 (X - x_zero_point) * (W - w_zero_point), zero points scalar
 * (w_zero_point may also hold one per output channel). */
static int infer_conv_integer(glow_graph *g, glow_node *n) {
  conv_shape c;
  if (conv_get(g, n, 1, &c))
    return -1;
  for (int i = 2; i < 4; i++) {
    const glow_value *z = glow_in(g, n, i);
    if (!z)
      continue;
    int64_t e = glow_value_numel(z);
    if (z->dt != glow_in(g, n, i - 2)->dt || z->rank > 1 || (e != 1 && !(i == 3 && e == c.M)))
      return glow_node_error(g, n, "%s must be a %s scalar%s", i == 2 ? "x_zero_point" : "w_zero_point",
                             glow_dtype_name(glow_in(g, n, i - 2)->dt), i == 3 ? " or one per output channel" : "");
  }
  int64_t dims[5];
  conv_out_shape(&c, dims);
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_I32, glow_in(g, n, 0)->rank, dims);
  return 0;
}

static int eval_conv_integer(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  return eval_conv_common(g, n, outs, ins, 1);
}

static int lower_conv_integer(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  conv_shape c;
  if (conv_get(g, n, 1, &c))
    return -1;
  const glow_value *wz = glow_in(g, n, 3);
  glow_kcall_init(kc, "glow_k_conv_integer_%s_%s", glow_dtype_suffix(glow_in(g, n, 0)->dt),
                  glow_dtype_suffix(glow_in(g, n, 1)->dt));
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 4; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_abi_conv_integer a = {c.N, c.G, c.Cg, c.Mg, wz && glow_value_numel(wz) > 1, glow_nn_win_abi(&c.w)};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_CONV_INTEGER = {"ConvInteger",     2, 4, 1, 1, infer_conv_integer, eval_conv_integer,
                                           lower_conv_integer};

/* QLinearConv: inputs x, x_scale, x_zero_point, w, w_scale, w_zero_point,
 * y_scale, y_zero_point and an optional int32 bias B; the w parameters may hold
 * one value per output channel. int32 sums (int64 when x, w and y are int16)
 * of (x - x_zero_point) * (w - w_zero_point), plus B, requantized as
 * quant-util.h describes. */
static int qconv_get(const glow_graph *g, const glow_node *n, conv_shape *c) {
  if (conv_get(g, n, 1, c))
    return -1;
  const glow_value *x = glow_in(g, n, 0), *w = glow_in(g, n, 3), *b = glow_in(g, n, 8);
  if (!glow_in(g, n, 1) || !glow_in(g, n, 4) || !glow_in(g, n, 6))
    return glow_node_error(g, n, "x_scale, w_scale and y_scale are required");
  if (glow_q_check_param(g, n, 1, "x_scale", 1, GLOW_DT_UNDEF, 1) ||
      glow_q_check_param(g, n, 2, "x_zero_point", 0, x->dt, 1) ||
      glow_q_check_param(g, n, 4, "w_scale", 1, GLOW_DT_UNDEF, c->M) ||
      glow_q_check_param(g, n, 5, "w_zero_point", 0, w->dt, c->M) ||
      glow_q_check_param(g, n, 6, "y_scale", 1, GLOW_DT_UNDEF, 1) ||
      glow_q_check_param(g, n, 7, "y_zero_point", 0, x->dt == GLOW_DT_I16 ? GLOW_DT_I16 : GLOW_DT_UNDEF, 1))
    return -1;
  if (x->dt == GLOW_DT_I16 && !glow_in(g, n, 7))
    return glow_node_error(g, n, "y_zero_point is required with int16 inputs (it gives Y its type)");
  if (b && (b->dt != GLOW_DT_I32 || b->rank != 1 || b->dims[0] != c->M))
    return glow_node_error(g, n, "B must be an int32 vector of %lld elements", (long long)c->M);
  if (w_channels_last(n) && w->dt != GLOW_DT_I8)
    return glow_node_error(g, n, "glow.w_layout = 1 needs int8 weights");
  return 0;
}

/* Channels-last weights (M x taps x C4) to the usual M x C/G x taps; frees w. */
static double *w_standard(const conv_shape *c, double *w) {
  int64_t taps = 1, c4 = (c->Cg + 3) / 4 * 4;
  for (int i = 0; i < c->w.nsp; i++)
    taps *= c->w.k[i];
  int64_t e = c->M * c->Cg * taps;
  double *r = glow_xmalloc(sizeof(double) * (size_t)(e ? e : 1));
  for (int64_t m = 0; m < c->M; m++)
    for (int64_t ci = 0; ci < c->Cg; ci++)
      for (int64_t t = 0; t < taps; t++)
        r[(m * c->Cg + ci) * taps + t] = w[(m * taps + t) * c4 + ci];
  free(w);
  return r;
}

static glow_dtype qconv_type(const glow_graph *g, const glow_node *n) {
  return glow_in(g, n, 7) ? glow_in(g, n, 7)->dt : GLOW_DT_U8;
}

static int infer_qlinear_conv(glow_graph *g, glow_node *n) {
  conv_shape c;
  if (qconv_get(g, n, &c))
    return -1;
  int64_t dims[5];
  conv_out_shape(&c, dims);
  glow_value_set_shape(glow_out(g, n, 0), qconv_type(g, n), glow_in(g, n, 0)->rank, dims);
  return 0;
}

static int eval_qlinear_conv(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  conv_shape c;
  if (qconv_get(g, n, &c))
    return -1;
  const glow_value *xz = glow_in(g, n, 2), *wz = glow_in(g, n, 5), *ws = glow_in(g, n, 4), *yz = glow_in(g, n, 7);
  double *x = to_double(glow_in(g, n, 0), ins[0], xz, xz ? ins[2] : NULL);
  double *w = to_double(glow_in(g, n, 3), ins[3], wz, wz ? ins[5] : NULL);
  if (w_channels_last(n))
    w = w_standard(&c, w);
  const glow_value *y = glow_out(g, n, 0);
  int64_t e = glow_value_numel(y), nm = c.N * c.M, osz = e / (nm ? nm : 1);
  double *acc = glow_xmalloc(sizeof(double) * (size_t)(e ? e : 1));
  conv_ref(&c, x, w, NULL, acc);
  const int32_t *b = glow_in(g, n, 8) ? ins[8] : NULL;
  float xs = *(const float *)ins[1], ys = *(const float *)ins[6];
  int32_t zp = glow_q_zero(yz, yz ? ins[7] : NULL, 0), lo, hi;
  glow_q_range(y->dt, &lo, &hi);
  for (int64_t i = 0; i < e; i++) {
    int64_t m = i / osz % c.M;
    int64_t a = (int64_t)acc[i] + (b ? b[m] : 0);
    if (y->dt != GLOW_DT_I16) /* 8 bits: the kernels' int32 sum */
      a = (int32_t)a;
    float mult = (xs * glow_q_scale(ws, ins[4], m)) / ys;
    glow_elem_seti(y->dt, outs[0], i, glow_q_saturate((float)a * mult, zp, lo, hi));
  }
  free(x);
  free(w);
  free(acc);
  return 0;
}

static int lower_qlinear_conv(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  conv_shape c;
  if (qconv_get(g, n, &c))
    return -1;
  const glow_value *ws = glow_in(g, n, 4), *wz = glow_in(g, n, 5);
  glow_kcall_init(kc, "glow_k_qlinearconv%s", glow_in(g, n, 0)->dt == GLOW_DT_I16 ? "16" : "");
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 9; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_abi_qconv a = {.N = c.N,
                      .G = c.G,
                      .Cg = c.Cg,
                      .Mg = c.Mg,
                      .signs = glow_q_sign_flags(glow_in(g, n, 0)->dt, glow_in(g, n, 3)->dt, qconv_type(g, n)),
                      .ws_per_channel = glow_value_numel(ws) > 1,
                      .wz_per_channel = wz && glow_value_numel(wz) > 1,
                      .w_layout = w_channels_last(n),
                      .w = glow_nn_win_abi(&c.w)};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_QLINEAR_CONV = {"QLinearConv",      8, 9, 1, 1, infer_qlinear_conv, eval_qlinear_conv,
                                           lower_qlinear_conv};
