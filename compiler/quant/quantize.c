/* require shapes and a checked profile; maintains order. Rewrites a float graph
 * into ONNX's quantized ops from the ranges of a profile:
 *   Conv (constant W)            -> QuantizeLinear? -> QLinearConv (int8 W, int32 B)
 *   MatMul, Gemm (constant B)    -> QuantizeLinear? -> QLinearMatMul (int8 B, Gemm's C as an int32 bias)
 *   MaxPool of a quantized value -> MaxPool on int8, the input's scale and zero point
 *   Reshape, Flatten, Squeeze,   -> the same on int8, the input's scale and zero point
 *   Unsqueeze, Transpose of one     (all but Transpose views: no copy at all)
 *   Add, one input quantized     -> QLinearAdd (com.microsoft), the output's range
 *   Mul, one input quantized     -> QLinearMul (com.microsoft), the output's range
 *   GlobalAveragePool of one     -> QLinearGlobalAveragePool (com.microsoft)
 *   AveragePool of one           -> QLinearAveragePool (com.microsoft), where it averages alike
 *   Concat, one input quantized  -> QLinearConcat (com.microsoft), the output's range
 *   Relu, Clip of one, not fused -> Clip on int8 (opset 11+), the input's scale and zero point
 * each followed by a DequantizeLinear that gives float consumers the original
 * value. A Conv, MatMul, Gemm, Add or Mul whose only consumer is a Relu (or a
 * Relu6-style Clip) takes its range: int8 saturation at the zero point (and at
 * the top) is the activation, which goes. A value already
 * quantized (by its producer) is reused, never quantized again; the
 * DequantizeLinear nodes nobody reads are removed by dead-nodes afterwards.
 * Activations are int8 with the schema's scale and zero point; weights are int8,
 * symmetric (zero point 0), per output channel of a Conv with
 * -enable-channelwise and per column of a MatMul's or Gemm's B (Glow's rows of
 * FullyConnected's weights) with -enable-rowwise; a weight's one scale covers
 * the range KL calibration picks from a histogram of its values with
 * -calibrate-constants; biases int32 with scale x_scale * w_scale (first rounded
 * to what an int8 or int16 bias holds with -quantization-precision-bias=Int8 or
 * Int16). A Gemm's C that varies down the rows is added in float after. With
 * -quantization-precision=Int16 activations and weights are int16 instead
 * (quant-params.c has the numbers); Mul, AveragePool and Concat then stay float. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops/quant-util.h"
#include "quant/quant.h"

typedef struct {
  int have;      /* scale and zero point known */
  float scale;
  int zp;
  int scale_id, zp_id; /* scalar constants, made on first use */
  int q;         /* id of the int8 value holding it, or -1 */
} qval;

typedef struct {
  glow_graph *g;
  const glow_profile *p;
  const glow_quant_options *o;
  qval *qv;      /* by float value id (grows with g->vals) */
  int nqv;
  glow_node *old;
  int nold;
  int *uses;     /* consumers of each value in the old node list */
  int *use1;     /* the last such consumer */
  glow_dtype qdt; /* of quantized values and weights: int8, or int16 (-quantization-precision=Int16) */
  int64_t saturated_biases;
  int kl_few_bins, kl_bins; /* KL ranges left as profiled for too few bins, and the fewest bins */
} qctx;

static qval *qv_of(qctx *c, int id) {
  if (id >= c->nqv) {
    int n = c->g->nvals + 64;
    c->qv = glow_xrealloc(c->qv, sizeof *c->qv * (size_t)n);
    for (int i = c->nqv; i < n; i++)
      c->qv[i] = (qval){0, 0.0f, 0, -1, -1, -1};
    c->nqv = n;
  }
  return &c->qv[id];
}

static int new_value(glow_graph *g, const char *base, const char *suffix) {
  char name[600];
  snprintf(name, sizeof name, "%s%s", base, suffix);
  return glow_value_add(g, name);
}

static int scalar_const(glow_graph *g, const char *base, const char *suffix, glow_dtype dt, const void *data) {
  int id = new_value(g, base, suffix);
  glow_value_make_const(g, id, dt, 0, NULL, data);
  return id;
}

/* The value's scale and zero point from its profile entry (or an override). */
static int params_of(qctx *c, int id) {
  qval *q = qv_of(c, id);
  if (q->have)
    return 0;
  const glow_profile_entry *e = glow_profile_find(c->p, c->g->vals[id].name);
  if (!e) {
    glow_error(c->o->profile_path, "no range for value '%s' in the profile", c->g->vals[id].name);
    return -1;
  }
  float lo = e->min, hi = e->max;
  int is_input = 0;
  for (int i = 0; i < c->g->ninputs; i++)
    is_input |= c->g->inputs[i] == id;
  /* KL clips activations only: a graph input's range is the data's, not a distribution's tail. */
  if (c->o->calibration_kl && !is_input) { /* steps over [0, threshold]: 255 one-sided unless symmetric */
    int one_sided = lo >= 0.0f && c->o->schema != GLOW_QUANT_SYMMETRIC && c->o->schema != GLOW_QUANT_SYMMETRIC_POW2;
    glow_quant_kl_range(e, one_sided ? 255 : 128, &lo, &hi);
    if (e->nbins < GLOW_KL_MIN_BINS && e->min < e->max) {
      if (!c->kl_few_bins || e->nbins < c->kl_bins)
        c->kl_bins = e->nbins;
      c->kl_few_bins++;
    }
  }
  glow_quant_params(lo, hi, c->o->schema, c->qdt, &q->scale, &q->zp);
  q->have = 1;
  return 0;
}

static void params_consts(qctx *c, int id) {
  qval *q = qv_of(c, id);
  if (q->scale_id >= 0)
    return;
  int8_t zp8 = (int8_t)q->zp;
  int16_t zp16 = (int16_t)q->zp;
  const char *name = c->g->vals[id].name;
  int s = scalar_const(c->g, name, ".scale", GLOW_DT_F32, &q->scale);
  int z = scalar_const(c->g, name, ".zero_point", c->qdt, c->qdt == GLOW_DT_I16 ? (void *)&zp16 : (void *)&zp8);
  q = qv_of(c, id); /* the table may have grown */
  q->scale_id = s;
  q->zp_id = z;
}

static glow_op op_named(const char *onnx) { return glow_op_from_onnx(onnx); }

/* The int8 twin of float value x: its producer's, or a QuantizeLinear added now. */
static int quantized(qctx *c, int x) {
  if (params_of(c, x))
    return -1;
  if (qv_of(c, x)->q >= 0)
    return qv_of(c, x)->q;
  params_consts(c, x);
  glow_graph *g = c->g;
  int q = new_value(g, g->vals[x].name, ".quantized");
  glow_value_set_shape(&g->vals[q], c->qdt, g->vals[x].rank, g->vals[x].dims);
  int in[3] = {x, c->qv[x].scale_id, c->qv[x].zp_id};
  glow_node_add(g, op_named("QuantizeLinear"), g->vals[x].name, 3, in, 1, &q);
  qv_of(c, x)->q = q;
  return q;
}

/* y = DequantizeLinear(q): float value y, now produced from its int8 twin q. */
static void dequantize_into(qctx *c, int q, int y) {
  params_consts(c, y);
  int in[3] = {q, c->qv[y].scale_id, c->qv[y].zp_id};
  glow_node_add(c->g, op_named("DequantizeLinear"), c->g->vals[y].name, 3, in, 1, &y);
  qv_of(c, y)->q = q;
}

/* The int8 output of a quantized op computing float value y: q, shaped as y. */
static int output_for(qctx *c, int y) {
  int q = new_value(c->g, c->g->vals[y].name, ".quantized");
  glow_value_set_shape(&c->g->vals[q], c->qdt, c->g->vals[y].rank, c->g->vals[y].dims);
  return q;
}

/* Node id of the new list takes old node n's attributes. */
static void move_attrs(glow_graph *g, int id, glow_node *n) {
  g->nodes[id].attrs = n->attrs;
  g->nodes[id].nattr = n->nattr;
  n->attrs = NULL;
  n->nattr = 0;
}

static int is_const_f32(const glow_graph *g, int id) {
  return id >= 0 && g->vals[id].kind == GLOW_VAL_CONST && g->vals[id].dt == GLOW_DT_F32;
}

/* The codes of the quantized dtype: int8's or int16's. */
static void code_range(const qctx *c, double *lo, double *hi) {
  *lo = c->qdt == GLOW_DT_I16 ? -32768.0 : -128.0;
  *hi = c->qdt == GLOW_DT_I16 ? 32767.0 : 127.0;
}

/* A scalar bound of Clip n: input k (opset 11) or attribute attr (opset 6), else def. */
static double clip_bound(const qctx *c, const glow_node *n, int k, const char *attr, double def) {
  if (n->nin > k && n->in[k] >= 0) {
    const glow_value *m = &c->g->vals[n->in[k]];
    return is_const_f32(c->g, n->in[k]) && glow_value_numel(m) == 1 ? *(const float *)m->data : NAN;
  }
  return n->nin > 1 ? def : glow_attr_float(n, attr, def);
}

/* An activation that saturation computes once its output's range is used:
 * Relu, or a Clip whose lower bound is at most 0 (Relu6), when the quantized
 * range of its output lies within the activation's bounds. Asymmetric ranges
 * (and symmetric_with_uint8's of non-negative values) start at the range's
 * minimum, which is at least the lower bound; a symmetric range [-a, a] holds
 * negative values that a Relu would have zeroed. */
static int saturating(qctx *c, const glow_node *n) {
  double lo = 0.0, hi = INFINITY;
  if (n->op == GLOW_OP_CLIP) {
    lo = clip_bound(c, n, 1, "min", -INFINITY);
    hi = clip_bound(c, n, 2, "max", INFINITY);
    if (!(lo <= 0.0) || isnan(hi)) /* a bound that is not a constant, or above 0 */
      return 0;
  } else if (n->op != GLOW_OP_RELU) {
    return 0;
  }
  int y = n->out[0];
  if (!glow_profile_find(c->p, c->g->vals[y].name) || params_of(c, y))
    return 0;
  const qval *q = qv_of(c, y);
  double qlo, qhi;
  code_range(c, &qlo, &qhi);
  double bottom = q->scale * (qlo - q->zp), top = q->scale * (qhi - q->zp), slack = 0.5 * q->scale;
  return bottom >= lo - slack && top <= hi + slack;
}

/* The one Relu or Clip reading y, when it is y's only consumer and saturation does its work, or -1. */
static int sole_relu(qctx *c, int y) {
  if (c->uses[y] != 1 || c->g->vals[y].is_output)
    return -1;
  int u = c->use1[y];
  return saturating(c, &c->old[u]) ? u : -1;
}

static int conv_quantizable(qctx *c, const glow_node *n) {
  const glow_graph *g = c->g;
  return g->vals[n->in[0]].dt == GLOW_DT_F32 && is_const_f32(g, n->in[1]) &&
         (n->nin < 3 || n->in[2] < 0 || is_const_f32(g, n->in[2])) && g->vals[n->in[1]].rank >= 3;
}

/* A copy of bias constant id's floats (malloc'd): as they are, or as the nearest
 * values an int8 or int16 bias holds (-quantization-precision-bias=Int8, Int16). */
static float *bias_values(qctx *c, int id) {
  const glow_value *v = &c->g->vals[id];
  int64_t e = glow_value_numel(v);
  float *b = glow_xmalloc(sizeof(float) * (size_t)(e ? e : 1));
  if (c->o->bias_precision == 1 || c->o->bias_precision == 2)
    glow_quant_bias_grid(v->data, e, c->o->schema, c->o->bias_precision == 1 ? GLOW_DT_I8 : GLOW_DT_I16, b);
  else
    memcpy(b, v->data, sizeof(float) * (size_t)e);
  return b;
}

/* -calibrate-constants (with KL): the |w| a weight's one scale covers, from a
 * histogram of its values; 0 (its whole range) otherwise and for scales per
 * channel or row, which as in Glow take each channel's own range. */
static float weight_limit(const qctx *c, const float *w, int64_t n, int per_channel) {
  return c->o->calibration_kl && c->o->calibrate_constants && !per_channel ? glow_quant_kl_weights(w, n) : 0.0f;
}

/* Conv -> QLinearConv (+ the Relu after it). Attributes move to the new node. */
static int rewrite_conv(qctx *c, glow_node *n) {
  glow_graph *g = c->g;
  int y = n->out[0], relu = sole_relu(c, y);
  if (relu >= 0) {
    c->old[relu].dead = 1;
    y = c->old[relu].out[0];
  }
  int xq = quantized(c, n->in[0]);
  if (xq < 0 || params_of(c, y))
    return -1;
  const glow_value *w = &g->vals[n->in[1]];
  int64_t m = w->dims[0], per = glow_value_numel(w) / (m ? m : 1);
  void *wq = glow_xmalloc((size_t)(m * per) * glow_dtype_size(c->qdt));
  float *ws = glow_xmalloc(sizeof(float) * (size_t)m);
  glow_quant_weights(w->data, m, per, c->o->channelwise, weight_limit(c, w->data, m * per, c->o->channelwise), c->qdt,
                     wq, ws);
  const char *wname = w->name;
  int64_t wdims[GLOW_MAX_RANK];
  memcpy(wdims, w->dims, sizeof wdims);
  int wrank = w->rank;
  int wq_id = new_value(g, wname, ".quantized");
  glow_value_make_const(g, wq_id, c->qdt, wrank, wdims, wq);
  int nscale = c->o->channelwise ? (int)m : 1;
  int64_t sdim = nscale;
  int ws_id = new_value(g, wname, ".scale");
  glow_value_make_const(g, ws_id, GLOW_DT_F32, c->o->channelwise ? 1 : 0, &sdim, ws);
  void *wz = glow_xcalloc((size_t)nscale, glow_dtype_size(c->qdt));
  int wz_id = new_value(g, wname, ".zero_point");
  glow_value_make_const(g, wz_id, c->qdt, c->o->channelwise ? 1 : 0, &sdim, wz);
  free(wz);
  free(wq);
  int b_id = -1;
  if (n->nin > 2 && n->in[2] >= 0) {
    float *b = bias_values(c, n->in[2]);
    int32_t *bq = glow_xmalloc(sizeof(int32_t) * (size_t)m);
    c->saturated_biases += glow_quant_bias(b, m, c->qv[n->in[0]].scale, ws, bq);
    free(b);
    b_id = new_value(g, g->vals[n->in[2]].name, ".quantized");
    glow_value_make_const(g, b_id, GLOW_DT_I32, 1, &m, bq);
    free(bq);
  }
  free(ws);
  params_consts(c, n->in[0]);
  params_consts(c, y);
  int q = output_for(c, y);
  int in[9] = {xq, c->qv[n->in[0]].scale_id, c->qv[n->in[0]].zp_id, wq_id, ws_id, wz_id,
               c->qv[y].scale_id, c->qv[y].zp_id, b_id};
  int id = glow_node_add(g, op_named("QLinearConv"), n->name, b_id >= 0 ? 9 : 8, in, 1, &q);
  move_attrs(g, id, n);
  dequantize_into(c, q, y);
  return 1;
}

/* Gemm's C as an int32 bias per column: beta * C (through the bias grid of
 * -quantization-precision-bias) when it is one value or one per column (shape
 * [N] or [1, N]), malloc'd; NULL when C varies down the rows too. */
static float *gemm_bias(qctx *c, const glow_node *n, int64_t cols) {
  const glow_value *cv = &c->g->vals[n->in[2]];
  int64_t cn = glow_value_numel(cv);
  if (cn != 1 && !(cn == cols && (cv->rank == 1 || (cv->rank == 2 && cv->dims[0] == 1))))
    return NULL;
  float beta = (float)glow_attr_float(n, "beta", 1.0), *col = glow_xmalloc(sizeof(float) * (size_t)cols);
  float *b = bias_values(c, n->in[2]);
  for (int64_t j = 0; j < cols; j++)
    col[j] = beta * b[cn == 1 ? 0 : j];
  free(b);
  return col;
}

/* B (k x cols, row-major) as dt into bq, one scale per column into bs
 * (-enable-rowwise: Glow's rows of FullyConnected's weights are these columns). */
static void quant_columns(const float *b, int64_t k, int64_t cols, glow_dtype dt, void *bq, float *bs) {
  float *bt = glow_xmalloc(sizeof(float) * (size_t)(k * cols));
  void *q = glow_xmalloc((size_t)(k * cols) * glow_dtype_size(dt));
  for (int64_t i = 0; i < k; i++)
    for (int64_t j = 0; j < cols; j++)
      bt[j * k + i] = b[i * cols + j];
  glow_quant_weights(bt, cols, k, 1, 0.0f, dt, q, bs);
  size_t es = glow_dtype_size(dt);
  for (int64_t i = 0; i < k; i++)
    for (int64_t j = 0; j < cols; j++)
      memcpy((char *)bq + (size_t)(i * cols + j) * es, (const char *)q + (size_t)(j * k + i) * es, es);
  free(bt);
  free(q);
}

/* MatMul (2-D constant B) or Gemm (constant B; alpha folded into B) ->
 * QLinearMatMul with int8 B, per tensor or per column (-enable-rowwise), Gemm's
 * C as its int32 bias (input 8, at the accumulator's scale, as Glow's
 * FullyConnected has it), or, when C varies down the rows or does not fit,
 * added in float after. */
static int rewrite_matmul(qctx *c, glow_node *n) {
  glow_graph *g = c->g;
  int gemm = n->op == GLOW_OP_GEMM;
  const glow_value *b = &g->vals[n->in[1]];
  if (g->vals[n->in[0]].dt != GLOW_DT_F32 || !is_const_f32(g, n->in[1]) || b->rank != 2)
    return 0;
  int has_c = gemm && n->nin > 2 && n->in[2] >= 0;
  if (gemm && (glow_attr_int(n, "transA", 0) || (has_c && !is_const_f32(g, n->in[2]))))
    return 0;
  int trans = gemm && glow_attr_int(n, "transB", 0);
  int64_t k = trans ? b->dims[1] : b->dims[0], cols = trans ? b->dims[0] : b->dims[1];
  float alpha = gemm ? (float)glow_attr_float(n, "alpha", 1.0) : 1.0f;
  float *bt = glow_xmalloc(sizeof(float) * (size_t)(k * cols));
  const float *bd = b->data;
  for (int64_t i = 0; i < k; i++)
    for (int64_t j = 0; j < cols; j++)
      bt[i * cols + j] = alpha * (trans ? bd[j * k + i] : bd[i * cols + j]);
  int rowwise = c->o->rowwise;
  int64_t nscale = rowwise ? cols : 1;
  void *bq = glow_xmalloc((size_t)(k * cols) * glow_dtype_size(c->qdt));
  float *bs = glow_xmalloc(sizeof(float) * (size_t)cols);
  if (rowwise)
    quant_columns(bt, k, cols, c->qdt, bq, bs);
  else
    glow_quant_weights(bt, 1, k * cols, 0, weight_limit(c, bt, k * cols, 0), c->qdt, bq, bs);
  for (int64_t j = 1; j < cols && !rowwise; j++)
    bs[j] = bs[0];
  free(bt);
  int xq = quantized(c, n->in[0]);
  /* C as an int32 bias where it fits at the accumulator's scale (int16 values'
   * scales are 256 times finer: a wide C may not), else added in float after. */
  float *bias = xq >= 0 && has_c ? gemm_bias(c, n, cols) : NULL;
  int32_t *biq = bias ? glow_xmalloc(sizeof(int32_t) * (size_t)cols) : NULL;
  if (bias && glow_quant_bias(bias, cols, c->qv[n->in[0]].scale, bs, biq)) {
    free(biq);
    biq = NULL;
  }
  free(bias);
  int add_c = has_c && !biq;
  int y = n->out[0], relu = add_c ? -1 : sole_relu(c, y);
  if (relu >= 0) {
    c->old[relu].dead = 1;
    y = c->old[relu].out[0];
  }
  /* With C added after, the product has no profile entry: it takes the output's range. */
  if (xq < 0 || params_of(c, y)) {
    free(bq);
    free(bs);
    free(biq);
    return -1;
  }
  int64_t dims[2] = {k, cols};
  b = &g->vals[n->in[1]]; /* values were added: g->vals may have moved */
  int bq_id = new_value(g, b->name, ".quantized");
  glow_value_make_const(g, bq_id, c->qdt, 2, dims, bq);
  free(bq);
  int bs_id = new_value(g, g->vals[n->in[1]].name, ".scale");
  glow_value_make_const(g, bs_id, GLOW_DT_F32, rowwise, &nscale, bs);
  void *bz = glow_xcalloc((size_t)nscale, glow_dtype_size(c->qdt)); /* symmetric: zero points 0 */
  int bz_id = new_value(g, g->vals[n->in[1]].name, ".zero_point");
  glow_value_make_const(g, bz_id, c->qdt, rowwise, &nscale, bz);
  free(bz);
  int bias_id = -1;
  if (biq) {
    bias_id = new_value(g, g->vals[n->in[2]].name, ".quantized");
    glow_value_make_const(g, bias_id, GLOW_DT_I32, 1, &cols, biq);
    free(biq);
  }
  free(bs);
  params_consts(c, n->in[0]);
  params_consts(c, y);
  int q = output_for(c, y);
  int in[9] = {xq, c->qv[n->in[0]].scale_id, c->qv[n->in[0]].zp_id, bq_id, bs_id, bz_id,
               c->qv[y].scale_id, c->qv[y].zp_id, bias_id};
  glow_node_add(g, op_named("QLinearMatMul"), n->name, bias_id >= 0 ? 9 : 8, in, 1, &q);
  if (!add_c) {
    dequantize_into(c, q, y);
    return 1;
  }
  /* Y = A B' + beta C, C varying down the rows: the product's range is the
   * output's, shifted by C's; the output's own range is a fair estimate when |C|
   * is small next to it. */
  int prod = new_value(g, g->vals[y].name, ".product");
  glow_value_set_shape(&g->vals[prod], GLOW_DT_F32, g->vals[y].rank, g->vals[y].dims);
  int din[3] = {q, c->qv[y].scale_id, c->qv[y].zp_id};
  glow_node_add(g, op_named("DequantizeLinear"), g->vals[y].name, 3, din, 1, &prod);
  const glow_value *cv = &g->vals[n->in[2]];
  float beta = (float)glow_attr_float(n, "beta", 1.0);
  int64_t cn = glow_value_numel(cv);
  float *cs = bias_values(c, n->in[2]);
  for (int64_t i = 0; i < cn; i++)
    cs[i] *= beta;
  int64_t cdims[GLOW_MAX_RANK];
  memcpy(cdims, cv->dims, sizeof cdims);
  int crank = cv->rank;
  int c_id = new_value(g, cv->name, ".scaled");
  glow_value_make_const(g, c_id, GLOW_DT_F32, crank, cdims, cs);
  free(cs);
  int ain[2] = {prod, c_id};
  glow_node_add(g, GLOW_OP_ADD, n->name, 2, ain, 1, &y);
  return 1;
}

/* y takes x's scale and zero point (and their constants). */
static void same_params(qctx *c, int y, int x) {
  qv_of(c, x > y ? x : y); /* grown first: the pointers below stay valid */
  qval *qy = &c->qv[y], *qx = &c->qv[x];
  qy->have = 1;
  qy->scale = qx->scale;
  qy->zp = qx->zp;
  qy->scale_id = qx->scale_id;
  qy->zp_id = qx->zp_id;
}

/* MaxPool or a view (Reshape, Flatten, Squeeze, Unsqueeze, Transpose) of a value
 * whose int8 twin exists: the same op on the int8 value, which keeps its scale and
 * zero point (a view moves values, and a max commutes with the quantization).
 * The other inputs (shapes, axes) stay. */
static int rewrite_same_params(qctx *c, glow_node *n) {
  int x = n->in[0], y = n->out[0], in[4];
  if ((n->nout > 1 && n->out[1] >= 0) || n->nin > 4)
    return 0;
  if (x >= c->nqv || c->qv[x].q < 0)
    return 0;
  same_params(c, y, x);
  int q = output_for(c, y);
  memcpy(in, n->in, sizeof(int) * (size_t)n->nin);
  in[0] = c->qv[x].q;
  move_attrs(c->g, glow_node_add(c->g, n->op, n->name, n->nin, in, 1, &q), n);
  dequantize_into(c, q, y);
  return 1;
}

/* A Relu or Clip (constant bounds) of a value whose int8 twin exists and that no
 * producer took in (opset 11 and later, where Clip's bounds are inputs of the
 * value's type): Clip on the int8 value between the codes of the bounds, which
 * keeps its scale and zero point (exact for Relu: 0 is a code). */
static int rewrite_activation(qctx *c, glow_node *n) {
  int x = n->in[0], y = n->out[0];
  if (c->g->opset < 11 || x >= c->nqv || c->qv[x].q < 0)
    return 0;
  double lo = 0.0, hi = INFINITY;
  if (n->op == GLOW_OP_CLIP) {
    lo = clip_bound(c, n, 1, "min", -INFINITY);
    hi = clip_bound(c, n, 2, "max", INFINITY);
    if (isnan(lo) || isnan(hi))
      return 0;
  }
  const qval *qx = qv_of(c, x);
  double qlo, qhi;
  code_range(c, &qlo, &qhi);
  int in[3] = {c->qv[x].q, -1, -1};
  double bound[2] = {lo, hi};
  for (int k = 0; k < 2; k++) {
    if (isinf(bound[k]))
      continue;
    double v = nearbyint(bound[k] / qx->scale) + qx->zp;
    v = v < qlo ? qlo : v > qhi ? qhi : v;
    int8_t v8 = (int8_t)v;
    int16_t v16 = (int16_t)v;
    in[1 + k] = scalar_const(c->g, c->g->vals[y].name, k ? ".max" : ".min", c->qdt,
                             c->qdt == GLOW_DT_I16 ? (void *)&v16 : (void *)&v8);
  }
  same_params(c, y, x);
  int q = output_for(c, y);
  glow_node_add(c->g, GLOW_OP_CLIP, n->name, in[2] >= 0 ? 3 : in[1] >= 0 ? 2 : 1, in, 1, &q);
  dequantize_into(c, q, y);
  return 1;
}

/* Whether float value x has an int8 twin, or a profile range to make one from. */
static int quantizable(qctx *c, int x) {
  const glow_graph *g = c->g;
  if (x < 0 || g->vals[x].dt != GLOW_DT_F32)
    return 0;
  return (x < c->nqv && c->qv[x].q >= 0) || glow_profile_find(c->p, g->vals[x].name) != NULL;
}

/* Add or Mul of two float values, one already int8 (a residual connection),
 * the other int8 or with a range -> QLinearAdd or QLinearMul (+ the Relu after
 * it), the output's range from the profile. Shapes broadcast as Add's. A float
 * constant input (no range) leaves the node in float. */
static int rewrite_binary(qctx *c, glow_node *n) {
  glow_graph *g = c->g;
  int a = n->in[0], b = n->in[1], y = n->out[0];
  if (!quantizable(c, a) || !quantizable(c, b) || !((a < c->nqv && c->qv[a].q >= 0) || (b < c->nqv && c->qv[b].q >= 0)))
    return 0;
  int relu = sole_relu(c, y);
  if (relu >= 0)
    y = c->old[relu].out[0];
  if (!glow_profile_find(c->p, g->vals[y].name))
    return 0;
  if (relu >= 0)
    c->old[relu].dead = 1;
  int aq = quantized(c, a), bq = aq < 0 ? -1 : quantized(c, b);
  if (bq < 0 || params_of(c, y))
    return -1;
  params_consts(c, a);
  params_consts(c, b);
  params_consts(c, y);
  int q = output_for(c, y);
  int in[8] = {aq, c->qv[a].scale_id, c->qv[a].zp_id, bq, c->qv[b].scale_id, c->qv[b].zp_id,
               c->qv[y].scale_id, c->qv[y].zp_id};
  glow_node_add(g, n->op == GLOW_OP_ADD ? GLOW_OP_QLINEAR_ADD : GLOW_OP_QLINEAR_MUL, n->name, 8, in, 1, &q);
  dequantize_into(c, q, y);
  return 1;
}

/* Concat of float values, one or more int8 and the others int8 or profiled ->
 * QLinearConcat (com.microsoft): every part requantized to the output's range
 * from the profile. */
static int rewrite_concat(qctx *c, glow_node *n) {
  glow_graph *g = c->g;
  int y = n->out[0], twin = 0, xq[GLOW_Q_CONCAT_MAX_PARTS], in[2 + 3 * GLOW_Q_CONCAT_MAX_PARTS];
  if (n->nin > GLOW_Q_CONCAT_MAX_PARTS || !glow_profile_find(c->p, g->vals[y].name))
    return 0;
  for (int k = 0; k < n->nin; k++) {
    if (!quantizable(c, n->in[k]))
      return 0;
    twin |= n->in[k] < c->nqv && c->qv[n->in[k]].q >= 0;
  }
  if (!twin)
    return 0;
  for (int k = 0; k < n->nin; k++)
    if ((xq[k] = quantized(c, n->in[k])) < 0)
      return -1;
  if (params_of(c, y))
    return -1;
  params_consts(c, y);
  in[0] = c->qv[y].scale_id;
  in[1] = c->qv[y].zp_id;
  for (int k = 0; k < n->nin; k++) {
    params_consts(c, n->in[k]);
    in[2 + 3 * k] = xq[k];
    in[3 + 3 * k] = c->qv[n->in[k]].scale_id;
    in[4 + 3 * k] = c->qv[n->in[k]].zp_id;
  }
  int q = output_for(c, y);
  move_attrs(g, glow_node_add(g, GLOW_OP_QLINEAR_CONCAT, n->name, 2 + 3 * n->nin, in, 1, &q), n);
  dequantize_into(c, q, y);
  return 1;
}

/* AveragePool whose QLinearAveragePool computes the same average (up to rounding):
 * attributes it takes, and with count_include_pad no window reaching past the
 * padding (ONNX Runtime divides by the kernel's size there, AveragePool by the
 * taps inside the padded input). */
static int avgpool_int8_ok(const glow_graph *g, const glow_node *n) {
  glow_nn_win w;
  char buf[200];
  if (glow_nn_win_get(g, n, &g->vals[n->in[0]], NULL, glow_attr_int(n, "ceil_mode", 0) != 0, &w) ||
      glow_q_avgpool_refusal(n, &w, buf, sizeof buf))
    return 0;
  for (int i = 0; i < w.nsp && glow_attr_int(n, "count_include_pad", 0); i++)
    if ((w.out[i] - 1) * w.s[i] + w.k[i] > w.in[i] + w.pb[i] + w.pe[i])
      return 0;
  return 1;
}

/* GlobalAveragePool or AveragePool of a value whose int8 twin exists ->
 * QLinearGlobalAveragePool or QLinearAveragePool (attributes moved), the
 * output's range from the profile. */
static int rewrite_avgpool(qctx *c, glow_node *n) {
  int x = n->in[0], y = n->out[0], global = n->op == GLOW_OP_GLOBAL_AVERAGE_POOL;
  if (x >= c->nqv || c->qv[x].q < 0 || c->g->vals[x].rank < 3 || !glow_profile_find(c->p, c->g->vals[y].name))
    return 0;
  if (!global && !avgpool_int8_ok(c->g, n))
    return 0;
  if (params_of(c, y))
    return -1;
  params_consts(c, y);
  int q = output_for(c, y);
  int in[5] = {c->qv[x].q, c->qv[x].scale_id, c->qv[x].zp_id, c->qv[y].scale_id, c->qv[y].zp_id};
  int id = glow_node_add(c->g, global ? GLOW_OP_QLINEAR_GLOBAL_AVERAGE_POOL : GLOW_OP_QLINEAR_AVERAGE_POOL, n->name,
                         5, in, 1, &q);
  move_attrs(c->g, id, n);
  dequantize_into(c, q, y);
  return 1;
}

int glow_quant_kept(const glow_quant_options *o, glow_op op) {
  const char *name = glow_op_get(op)->onnx_name;
  size_t len = strlen(name);
  for (const char *s = o->keep_kinds; s && *s;) {
    size_t n = strcspn(s, ",");
    if (n == len && !strncmp(s, name, n))
      return 1;
    s += n + (s[n] == ',');
  }
  return 0;
}

/* The node, unchanged, at the end of the new list. */
static void keep_node(glow_graph *g, glow_node *n) {
  move_attrs(g, glow_node_add(g, n->op, n->name, n->nin, n->in, n->nout, n->out), n);
}

int glow_pass_quantize(glow_graph *g, const glow_profile *p, const glow_quant_options *o) {
  if (o->calibrate_constants && !o->calibration_kl) {
    glow_error("-calibrate-constants", "calibrates the weights' ranges as the activations' are: add "
                                       "-quantization-calibration=KL (without it no range is calibrated)");
    return -1;
  }
  static const char *needed[] = {"QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul"};
  for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
    if (op_named(needed[i]) == GLOW_OP_COUNT) {
      glow_error("-load-profile", "this glowc has no %s op, which quantization needs", needed[i]);
      return -1;
    }
  qctx c = {g, p, o, NULL, 0, g->nodes, g->nnodes, NULL, NULL, o->int16 ? GLOW_DT_I16 : GLOW_DT_I8, 0, 0, 0};
  c.uses = glow_xcalloc((size_t)g->nvals, sizeof(int));
  c.use1 = glow_xcalloc((size_t)g->nvals, sizeof(int));
  for (int i = 0; i < c.nold; i++)
    for (int k = 0; !c.old[i].dead && k < c.old[i].nin; k++)
      if (c.old[i].in[k] >= 0) {
        c.uses[c.old[i].in[k]]++;
        c.use1[c.old[i].in[k]] = i;
      }
  g->nodes = NULL;
  g->nnodes = g->capnodes = 0;
  int rc = 0, rewritten = 0, int16 = o->int16; /* int16 has no QLinearMul, QLinearAveragePool, QLinearConcat */
  for (int i = 0; i < c.nold && rc >= 0; i++) {
    glow_node *n = &c.old[i];
    rc = 0;
    if (!n->dead && !glow_quant_kept(o, n->op)) {
      if (n->op == GLOW_OP_CONV && conv_quantizable(&c, n))
        rc = rewrite_conv(&c, n);
      else if (n->op == GLOW_OP_MAT_MUL || n->op == GLOW_OP_GEMM)
        rc = rewrite_matmul(&c, n);
      else if (n->op == GLOW_OP_MAX_POOL || n->op == GLOW_OP_RESHAPE || n->op == GLOW_OP_FLATTEN ||
               n->op == GLOW_OP_SQUEEZE || n->op == GLOW_OP_UNSQUEEZE || n->op == GLOW_OP_TRANSPOSE)
        rc = rewrite_same_params(&c, n);
      else if (n->op == GLOW_OP_RELU || n->op == GLOW_OP_CLIP)
        rc = rewrite_activation(&c, n);
      else if ((n->op == GLOW_OP_ADD || (n->op == GLOW_OP_MUL && !int16)) && n->nin == 2)
        rc = rewrite_binary(&c, n);
      else if (n->op == GLOW_OP_GLOBAL_AVERAGE_POOL || (n->op == GLOW_OP_AVERAGE_POOL && !int16))
        rc = rewrite_avgpool(&c, n);
      else if (n->op == GLOW_OP_CONCAT && !int16)
        rc = rewrite_concat(&c, n);
    }
    if (rc == 0 && !n->dead)
      keep_node(g, n);
    rewritten += rc > 0;
  }
  for (int i = 0; i < c.nold; i++)
    glow_node_free(&c.old[i]);
  free(c.old);
  free(c.qv);
  free(c.uses);
  free(c.use1);
  if (rc < 0)
    return -1;
  if (c.kl_few_bins)
    glow_warning(o->profile_path,
                 "-quantization-calibration=KL left the ranges of %d values as profiled, as Glow does: their "
                 "histograms have fewer bins (as few as %d) than the %d steps of int8; profile with "
                 "-num-histogram-bins=%d (Glow's tools default to 10) for KL to clip them",
                 c.kl_few_bins, c.kl_bins, GLOW_KL_MIN_BINS, GLOW_PROFILE_BINS);
  if (c.saturated_biases)
    glow_warning(o->profile_path,
                 "%lld bias values do not fit in int32 at their accumulator's scale and were saturated; "
                 "the ranges of the values feeding those layers may be too narrow",
                 (long long)c.saturated_biases);
  if (o->verbose)
    glow_note("quantize: %d nodes quantized (%s)\n", rewritten, o->profile_path);
  return 0;
}
