/* TFLite tensors as graph values, in the model's layout (NHWC) or in NCHW,
 * and the nodes, constants and attributes the operator importers make. */
#include <stdlib.h>
#include <string.h>

#include "importer/tflite.h"

static const int64_t to_nchw[4] = {0, 3, 1, 2}, to_nhwc[4] = {0, 2, 3, 1};

static int new_value(glow_tfl *c, const char *name) { return glow_value_add_unique(c->g, &c->names, name); }

static const char *out_name(const glow_tfl *c, const glow_tfl_op *op) {
  return op->nout > 0 && op->out[0] >= 0 ? c->t[op->out[0]].name : op->type;
}

int glow_tfl_tmp(glow_tfl *c, const glow_tfl_op *op, const char *what) {
  glow_strbuf b = {0};
  glow_sb_printf(&b, "%s/%s", out_name(c, op), what);
  int id = new_value(c, b.s);
  glow_sb_free(&b);
  return id;
}

static int copy_const(glow_tfl *c, const glow_tfl_op *op, int id, glow_dtype dt, int rank, const int64_t *dims,
                      const void *data) {
  glow_value v = {.dt = dt, .rank = rank};
  for (int d = 0; d < rank; d++) /* a scalar's dims may be NULL */
    v.dims[d] = dims[d];
  /* Copies may outgrow the file (a constant in both layouts, buffers shared by tensors), but
   * not by much in a real model: 4096 tensors on one 1 MiB buffer took 8.7 GB from 1.8 MB. */
  uint64_t cap = 4 * (uint64_t)c->fb.size + (64ull << 20);
  cap = cap < GLOW_TFL_MAX_CONST_BYTES ? cap : GLOW_TFL_MAX_CONST_BYTES;
  c->const_bytes += glow_value_bytes(&v);
  if (c->const_bytes > cap)
    return glow_tfl_err(c, op, "its constants bring the model's to over %llu MiB, more than 4 times the file's "
                        "size and 64 MiB: tensors share buffers past what any real model does",
                        (unsigned long long)(cap >> 20));
  glow_value_make_const(c->g, id, dt, rank, dims, data);
  return id;
}

int glow_tfl_const(glow_tfl *c, const glow_tfl_op *op, const char *what, glow_dtype dt, int rank,
                   const int64_t *dims, const void *data) {
  return copy_const(c, op, glow_tfl_tmp(c, op, what), dt, rank, dims, data);
}

int glow_tfl_const_ints(glow_tfl *c, const glow_tfl_op *op, const char *what, int n, const int64_t *v) {
  int64_t dims[1] = {n};
  return glow_tfl_const(c, op, what, GLOW_DT_I64, 1, dims, v);
}

int glow_tfl_node(glow_tfl *c, const glow_tfl_op *op, glow_op kind, const char *what, int nin, const int *in,
                  int nout, const int *out) {
  glow_strbuf b = {0};
  if (what)
    glow_sb_printf(&b, "%s/%s", out_name(c, op), what);
  else
    glow_sb_printf(&b, "%s", out_name(c, op));
  int id = glow_node_add(c->g, kind, b.s, nin, in, nout, out);
  glow_sb_free(&b);
  return id;
}

static glow_attr *attr_new(glow_tfl *c, int node, const char *name, glow_attr_type type) {
  glow_attr *a = glow_attr_slot(&c->g->nodes[node], name);
  a->type = type;
  return a;
}

void glow_tfl_attr_int(glow_tfl *c, int node, const char *name, int64_t v) {
  attr_new(c, node, name, GLOW_ATTR_INT)->i = v;
}

void glow_tfl_attr_float(glow_tfl *c, int node, const char *name, double v) {
  attr_new(c, node, name, GLOW_ATTR_FLOAT)->f = v;
}

void glow_tfl_attr_ints(glow_tfl *c, int node, const char *name, const int64_t *v, int n) {
  glow_attr *a = attr_new(c, node, name, GLOW_ATTR_INTS);
  a->ints = glow_xmalloc(sizeof(int64_t) * (size_t)(n ? n : 1));
  memcpy(a->ints, v, sizeof(int64_t) * (size_t)n);
  a->n = n;
}

void glow_tfl_attr_string(glow_tfl *c, int node, const char *name, const char *s) {
  attr_new(c, node, name, GLOW_ATTR_STRING)->s = glow_xstrdup(s);
}

/* Shapes of the node's outputs, now; -1 after an error naming the node. */
static int infer(glow_tfl *c, int node) {
  glow_node *n = &c->g->nodes[node];
  if (glow_op_get(n->op)->infer(c->g, n))
    return -1;
  for (int k = 0; k < n->nout; k++) { /* refused here, before a later node's inference multiplies them out */
    const glow_value *v = n->out[k] >= 0 ? &c->g->vals[n->out[k]] : NULL;
    int64_t numel = 1;
    for (int d = 0; v && d < v->rank; d++) {
      if (v->dims[d] > 0 && numel > GLOW_TFL_MAX_ELEMS / v->dims[d])
        return glow_node_error(c->g, n, "output '%s' would have more than %lld elements (dimension %d is %lld)",
                               v->name, (long long)GLOW_TFL_MAX_ELEMS, d, (long long)v->dims[d]);
      numel *= v->dims[d] > 0 ? v->dims[d] : 1;
    }
  }
  return 0;
}

int glow_tfl_infer(glow_tfl *c, int node) { return infer(c, node); }

const glow_tfl_tensor *glow_tfl_tensor_in(const glow_tfl *c, const glow_tfl_op *op, int k) {
  return k < op->nin && op->in[k] >= 0 ? &c->t[op->in[k]] : NULL;
}

const glow_tfl_tensor *glow_tfl_tensor_out(const glow_tfl *c, const glow_tfl_op *op, int k) {
  return k < op->nout ? &c->t[op->out[k]] : NULL;
}

int glow_tfl_axis(int axis, int rank, int layout) {
  if (axis < 0)
    axis += rank;
  return rank == 4 && layout == GLOW_TFL_NCHW && axis >= 0 && axis < 4 ? (int)((int64_t[]){0, 2, 3, 1})[axis] : axis;
}

static int transpose(glow_tfl *c, const glow_tfl_op *op, int from, const char *name, const int64_t *perm) {
  int to = new_value(c, name);
  int node = glow_node_add(c->g, GLOW_OP_TRANSPOSE, c->g->vals[to].name, 1, &from, 1, &to);
  glow_tfl_attr_ints(c, node, "perm", perm, 4);
  (void)op;
  return infer(c, node) ? -1 : to;
}

/* The constant tensor t as a value in NHWC, made on first use. */
static int const_value(glow_tfl *c, const glow_tfl_op *op, glow_tfl_tensor *t) {
  if (t->val[GLOW_TFL_NHWC] < 0) {
    int id = new_value(c, t->name);
    if (copy_const(c, op, id, t->dt, t->rank, t->dims, t->data) < 0)
      return -1;
    t->val[GLOW_TFL_NHWC] = id;
  }
  return t->val[GLOW_TFL_NHWC];
}

/* NHWC bytes of a 4-D constant in NCHW order. */
static int const_nchw(glow_tfl *c, const glow_tfl_op *op, glow_tfl_tensor *t) {
  size_t es = glow_dtype_size(t->dt);
  int64_t n = t->dims[0], h = t->dims[1], w = t->dims[2], ch = t->dims[3];
  uint8_t *d = glow_xmalloc(t->data_size ? t->data_size : 1);
  for (int64_t i = 0; i < n; i++)
    for (int64_t y = 0; y < h; y++)
      for (int64_t x = 0; x < w; x++)
        for (int64_t k = 0; k < ch; k++)
          memcpy(d + (size_t)(((i * ch + k) * h + y) * w + x) * es, t->data + (size_t)(((i * h + y) * w + x) * ch + k) * es,
                 es);
  int64_t dims[4] = {n, ch, h, w};
  glow_strbuf b = {0};
  glow_sb_printf(&b, "%s/nchw", t->name);
  int id = copy_const(c, op, new_value(c, b.s), t->dt, 4, dims, d);
  glow_sb_free(&b);
  free(d);
  return id;
}

int glow_tfl_in(glow_tfl *c, const glow_tfl_op *op, int k, int layout) {
  if (k >= op->nin || op->in[k] < 0)
    return glow_tfl_err(c, op, "input %d is omitted; this operator needs it", k);
  glow_tfl_tensor *t = &c->t[op->in[k]];
  if (t->rank != 4)
    layout = GLOW_TFL_NHWC;
  if (t->val[layout] >= 0)
    return t->val[layout];
  if (t->data) {
    if (layout == GLOW_TFL_NHWC)
      return const_value(c, op, t);
    return t->val[layout] = const_nchw(c, op, t);
  }
  int other = t->val[!layout];
  if (other < 0)
    return glow_tfl_err(c, op, "input %d is tensor '%s', which is no input or constant of the model and no earlier "
                        "operator writes", k, t->name);
  glow_strbuf b = {0};
  glow_sb_printf(&b, layout == GLOW_TFL_NCHW ? "%s/nchw" : "%s", t->name);
  int v = transpose(c, op, other, b.s, layout == GLOW_TFL_NCHW ? to_nchw : to_nhwc);
  glow_sb_free(&b);
  return t->val[layout] = v;
}

int glow_tfl_home(const glow_tfl *c, const glow_tfl_op *op, int k) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
  return t && t->rank == 4 && t->val[GLOW_TFL_NHWC] < 0 && t->val[GLOW_TFL_NCHW] >= 0 ? GLOW_TFL_NCHW : GLOW_TFL_NHWC;
}

int glow_tfl_out(glow_tfl *c, const glow_tfl_op *op, int k, int layout) {
  glow_tfl_tensor *t = &c->t[op->out[k]];
  if (t->rank != 4)
    layout = GLOW_TFL_NHWC;
  glow_strbuf b = {0};
  glow_sb_printf(&b, layout == GLOW_TFL_NCHW ? "%s/nchw" : "%s", t->name);
  int id = new_value(c, b.s);
  glow_sb_free(&b);
  return t->val[layout] = id;
}

int glow_tfl_in_ints(glow_tfl *c, const glow_tfl_op *op, int k, int64_t *v, int cap) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
  if (!t || !t->data || (t->dt != GLOW_DT_I32 && t->dt != GLOW_DT_I64))
    return glow_tfl_err(c, op, "input %d%s%s%s must be a constant int32 or int64 tensor: glowc compiles fixed shapes",
                        k, t ? " ('" : "", t ? t->name : "", t ? "')" : "");
  int64_t n = (int64_t)(t->data_size / glow_dtype_size(t->dt));
  if (n > cap)
    return glow_tfl_err(c, op, "input %d ('%s') has %lld values; glowc reads at most %d", k, t->name, (long long)n, cap);
  for (int64_t i = 0; i < n; i++) {
    if (t->dt == GLOW_DT_I32) {
      int32_t x;
      memcpy(&x, t->data + 4 * i, 4);
      v[i] = x;
    } else {
      memcpy(&v[i], t->data + 8 * i, 8);
    }
  }
  return (int)n;
}

int glow_tfl_out_pre(glow_tfl *c, const glow_tfl_op *op, int k, int layout, int64_t act) {
  return act == GLOW_TFL_ACT_NONE ? glow_tfl_out(c, op, k, layout) : glow_tfl_tmp(c, op, "pre-activation");
}

static int scalar(glow_tfl *c, const glow_tfl_op *op, const char *what, float f) {
  return glow_tfl_const(c, op, what, GLOW_DT_F32, 0, NULL, &f);
}

int glow_tfl_activation(glow_tfl *c, const glow_tfl_op *op, int pre, int64_t act, int k, int layout) {
  if (act == GLOW_TFL_ACT_NONE)
    return 0;
  int in[3] = {pre, -1, -1}, node;
  glow_op kind = GLOW_OP_CLIP;
  int nin = 3;
  switch (act) {
  case GLOW_TFL_ACT_RELU: kind = GLOW_OP_RELU; nin = 1; break;
  case GLOW_TFL_ACT_TANH: kind = GLOW_OP_TANH; nin = 1; break;
  case GLOW_TFL_ACT_RELU6: in[1] = scalar(c, op, "min", 0.0f); in[2] = scalar(c, op, "max", 6.0f); break;
  case GLOW_TFL_ACT_RELU_N1_TO_1: in[1] = scalar(c, op, "min", -1.0f); in[2] = scalar(c, op, "max", 1.0f); break;
  default:
    return glow_tfl_err(c, op, "has fused activation %lld (%s), which glowc does not support", (long long)act,
                        act == GLOW_TFL_ACT_SIGN_BIT ? "SIGN_BIT" : "unknown");
  }
  if (nin == 3 && (in[1] < 0 || in[2] < 0))
    return -1;
  int out = glow_tfl_out(c, op, k, layout);
  node = glow_tfl_node(c, op, kind, NULL, nin, in, 1, &out);
  return infer(c, node);
}

/* Input k transposed by perm (a copy for a constant, else a Transpose node). */
int glow_tfl_in_perm(glow_tfl *c, const glow_tfl_op *op, int k, const int64_t *perm, const char *what) {
  int x = glow_tfl_in(c, op, k, GLOW_TFL_NHWC);
  if (x < 0)
    return -1;
  const glow_tfl_tensor *t = &c->t[op->in[k]];
  int rank = t->rank;
  if (!t->data) {
    int y = glow_tfl_tmp(c, op, what);
    int node = glow_tfl_node(c, op, GLOW_OP_TRANSPOSE, what, 1, &x, 1, &y);
    glow_tfl_attr_ints(c, node, "perm", perm, rank);
    return glow_tfl_infer(c, node) ? -1 : y;
  }
  size_t es = glow_dtype_size(t->dt);
  int64_t dims[GLOW_MAX_RANK], stride[GLOW_MAX_RANK], idx[GLOW_MAX_RANK] = {0}, n = 1;
  for (int d = rank - 1; d >= 0; d--) {
    stride[d] = n;
    n *= t->dims[d];
  }
  for (int d = 0; d < rank; d++)
    dims[d] = t->dims[perm[d]];
  uint8_t *out = glow_xmalloc(t->data_size ? t->data_size : 1);
  for (int64_t i = 0; i < n; i++) { /* idx walks the output in order */
    int64_t src = 0;
    for (int d = 0; d < rank; d++)
      src += idx[d] * stride[perm[d]];
    memcpy(out + (size_t)i * es, t->data + (size_t)src * es, es);
    for (int d = rank - 1; d >= 0 && ++idx[d] == dims[d]; d--)
      idx[d] = 0;
  }
  int id = glow_tfl_const(c, op, what, t->dt, rank, dims, out);
  free(out);
  return id;
}

int glow_tfl_follow(const glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *y = glow_tfl_tensor_out(c, op, 0);
  int nchw = 0;
  if (!y || y->rank != 4)
    return GLOW_TFL_NHWC;
  for (int k = 0; k < op->nin; k++) {
    const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
    if (t && !t->data && t->rank != 4)
      return GLOW_TFL_NHWC;
    nchw |= glow_tfl_home(c, op, k) == GLOW_TFL_NCHW;
  }
  return nchw ? GLOW_TFL_NCHW : GLOW_TFL_NHWC;
}

int glow_tfl_in_bcast(glow_tfl *c, const glow_tfl_op *op, int k, int layout) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
  if (layout == GLOW_TFL_NHWC || !t || t->rank == 4 || !t->data || t->rank > 4)
    return glow_tfl_in(c, op, k, layout);
  /* a lower-rank constant broadcast against NHWC: as 4-D NHWC (ones in front), then NCHW */
  int64_t d[4] = {1, 1, 1, 1};
  for (int i = 0; i < t->rank; i++)
    d[4 - t->rank + i] = t->dims[i];
  int64_t nchw[4] = {d[0], d[3], d[1], d[2]};
  /* (1,1,1,C) and (1,1,W,C)-style shapes: NCHW order of the same bytes needs a real transpose */
  size_t es = glow_dtype_size(t->dt);
  uint8_t *out = glow_xmalloc(t->data_size ? t->data_size : 1);
  for (int64_t i = 0; i < d[0]; i++)
    for (int64_t y = 0; y < d[1]; y++)
      for (int64_t x = 0; x < d[2]; x++)
        for (int64_t ch = 0; ch < d[3]; ch++)
          memcpy(out + (size_t)(((i * d[3] + ch) * d[1] + y) * d[2] + x) * es,
                 t->data + (size_t)(((i * d[1] + y) * d[2] + x) * d[3] + ch) * es, es);
  glow_strbuf b = {0};
  glow_sb_printf(&b, "input%d/nchw", k);
  int id = glow_tfl_const(c, op, b.s, t->dt, 4, nchw, out);
  glow_sb_free(&b);
  free(out);
  return id;
}

/* ---- convolution and pooling windows (moved from tflite-nn.c: the int8 importers share them) ---- */

enum { CONV_PADDING = 0, CONV_STRIDE_W = 1, CONV_STRIDE_H = 2, CONV_ACT = 3, CONV_DIL_W = 4, CONV_DIL_H = 5 };
enum { DW_PADDING = 0, DW_STRIDE_W = 1, DW_STRIDE_H = 2, DW_MULT = 3, DW_ACT = 4, DW_DIL_W = 5, DW_DIL_H = 6 };
enum { POOL_PADDING = 0, POOL_STRIDE_W = 1, POOL_STRIDE_H = 2, POOL_W = 3, POOL_H = 4, POOL_ACT = 5 };

void glow_tfl_conv_window(const glow_tfl_op *op, int depthwise, glow_tfl_window *w) {
  const glow_fb_table *o = &op->opts;
  *w = (glow_tfl_window){.padding = glow_fb_int(o, depthwise ? DW_PADDING : CONV_PADDING, 1, 0),
                         .stride = {glow_fb_int(o, depthwise ? DW_STRIDE_H : CONV_STRIDE_H, 4, 0),
                                    glow_fb_int(o, depthwise ? DW_STRIDE_W : CONV_STRIDE_W, 4, 0)},
                         .dilation = {glow_fb_int(o, depthwise ? DW_DIL_H : CONV_DIL_H, 4, 1),
                                      glow_fb_int(o, depthwise ? DW_DIL_W : CONV_DIL_W, 4, 1)},
                         .act = glow_fb_int(o, depthwise ? DW_ACT : CONV_ACT, 1, 0)};
}

void glow_tfl_pool_window(const glow_tfl_op *op, glow_tfl_window *w) {
  const glow_fb_table *o = &op->opts;
  *w = (glow_tfl_window){.padding = glow_fb_int(o, POOL_PADDING, 1, 0),
                         .stride = {glow_fb_int(o, POOL_STRIDE_H, 4, 0), glow_fb_int(o, POOL_STRIDE_W, 4, 0)},
                         .dilation = {1, 1},
                         .kernel = {glow_fb_int(o, POOL_H, 4, 0), glow_fb_int(o, POOL_W, 4, 0)},
                         .act = glow_fb_int(o, POOL_ACT, 1, 0)};
}

int glow_tfl_window_pads(glow_tfl *c, const glow_tfl_op *op, const glow_tfl_window *w, const int64_t *in,
                         int64_t *pads) {
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

void glow_tfl_window_attrs(glow_tfl *c, int node, const glow_tfl_window *w, const int64_t *pads, int dilations) {
  glow_tfl_attr_ints(c, node, "kernel_shape", w->kernel, 2);
  glow_tfl_attr_ints(c, node, "strides", w->stride, 2);
  glow_tfl_attr_ints(c, node, "pads", pads, 4);
  if (dilations)
    glow_tfl_attr_ints(c, node, "dilations", w->dilation, 2);
}

int glow_tfl_need_4d(glow_tfl *c, const glow_tfl_op *op, int k, const char *what) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
  if (!t || t->rank != 4)
    return glow_tfl_err(c, op, "the %s%s%s%s has rank %d; it must be 4-D (%s)", what, t ? " ('" : "", t ? t->name : "",
                        t ? "')" : "", t ? t->rank : 0, k ? "OHWI" : "NHWC");
  return 0;
}

int glow_tfl_conv_filter(glow_tfl *c, const glow_tfl_op *op, int depthwise, int64_t *group) {
  static const int64_t to_mchw[4] = {3, 0, 1, 2};
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *f = glow_tfl_tensor_in(c, op, 1);
  if (depthwise) {
    if (f->dims[0] != 1 || !x->dims[3] || f->dims[3] % x->dims[3])
      return glow_tfl_err(c, op, "has a %lldx%lldx%lldx%lld filter for %lld input channels; a depthwise filter is "
                          "1 x H x W x (channels times the multiplier)", (long long)f->dims[0], (long long)f->dims[1],
                          (long long)f->dims[2], (long long)f->dims[3], (long long)x->dims[3]);
    *group = x->dims[3];
    return glow_tfl_in_perm(c, op, 1, to_mchw, "filter");
  }
  if (!f->dims[3] || x->dims[3] % f->dims[3])
    return glow_tfl_err(c, op, "has filters of %lld input channels for an input of %lld", (long long)f->dims[3],
                        (long long)x->dims[3]);
  *group = x->dims[3] / f->dims[3];
  return glow_tfl_in(c, op, 1, GLOW_TFL_NCHW);
}

int glow_tfl_fc_rows(glow_tfl *c, const glow_tfl_op *op) {
  enum { FC_WEIGHTS_FORMAT = 1 };
  if (glow_fb_int(&op->opts, FC_WEIGHTS_FORMAT, 1, 0))
    return glow_tfl_err(c, op, "has shuffled weights (SHUFFLED4x16INT8), which glowc does not read");
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0), *wt = glow_tfl_tensor_in(c, op, 1);
  if (!wt || wt->rank != 2 || !wt->dims[1])
    return glow_tfl_err(c, op, "has weights of rank %d; they must be 2-D (outputs x inputs)", wt ? wt->rank : 0);
  int64_t n = 1;
  for (int d = 0; d < x->rank; d++)
    n *= x->dims[d];
  if (n % wt->dims[1])
    return glow_tfl_err(c, op, "has an input of %lld elements, not rows of the weights' %lld", (long long)n,
                        (long long)wt->dims[1]);
  int64_t rows[2] = {n / wt->dims[1], wt->dims[1]};
  int shape[2] = {glow_tfl_in(c, op, 0, GLOW_TFL_NHWC), glow_tfl_const_ints(c, op, "rows", 2, rows)};
  if (shape[0] < 0)
    return -1;
  int flat = glow_tfl_tmp(c, op, "rows");
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_RESHAPE, "rows", 2, shape, 1, &flat)) ? -1 : flat;
}
