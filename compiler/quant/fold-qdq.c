/* require shapes; maintains order. Pre-quantized ONNX in the QDQ form, a float
 * Conv or MatMul between DequantizeLinear inputs and a QuantizeLinear output,
 *   y_q = QuantizeLinear(Conv(DequantizeLinear(x_q), DequantizeLinear(W_q), B), y_s, y_z)
 * becomes the int8 op it stands for, QLinearConv (or QLinearMatMul), in the
 * QuantizeLinear's place; the float op and the DequantizeLinear nodes are left to
 * dead-nodes. DequantizeLinear of constants, which infer-fold leaves alone so that
 * weights can be recognized here, is folded afterwards. Only when the pattern is exact: per-tensor x, constant int8/uint8 W
 * (per-tensor, or per output channel for Conv), a constant float B (quantized
 * here to int32 with scale x_s * W_s) and the float op's only consumer the
 * QuantizeLinear. Anything else stays float, which is slower but right. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quant/quant.h"

typedef struct {
  glow_op q, dq, qconv, qmatmul;
  int *uses;
} fq;

static int is_const(const glow_graph *g, int id) { return id >= 0 && g->vals[id].kind == GLOW_VAL_CONST; }

/* The DequantizeLinear producing v (with scale and zero point inputs), or NULL. */
static const glow_node *dq_of(const glow_graph *g, const fq *f, int v) {
  int p = v >= 0 ? g->vals[v].producer : -1;
  if (p < 0 || g->nodes[p].dead || g->nodes[p].op != f->dq || g->nodes[p].nin < 3 || g->nodes[p].in[2] < 0)
    return NULL;
  return &g->nodes[p];
}

static int int8ish(glow_dtype dt) { return dt == GLOW_DT_I8 || dt == GLOW_DT_U8; }

/* B (float) as int32 with scale x_s * w_s[k]; -1 if B is not a constant float. */
static int bias_int32(glow_graph *g, int b, int xs, int ws, int64_t m) {
  if (!is_const(g, b) || g->vals[b].dt != GLOW_DT_F32 || glow_value_numel(&g->vals[b]) != m)
    return -1;
  int64_t nws = glow_value_numel(&g->vals[ws]);
  const float *bd = g->vals[b].data, *wsd = g->vals[ws].data;
  float xsv = *(const float *)g->vals[xs].data;
  int32_t *q = glow_xmalloc(sizeof(int32_t) * (size_t)(m ? m : 1));
  for (int64_t k = 0; k < m; k++) {
    double v = nearbyint((double)bd[k] / ((double)xsv * (double)wsd[nws > 1 ? k : 0]));
    q[k] = (int32_t)(v < -2147483647.0 ? -2147483647.0 : v > 2147483647.0 ? 2147483647.0 : v);
  }
  int id = glow_value_add_derived(g, b, ".quantized", GLOW_DT_I32, 1, &m, q);
  free(q);
  return id;
}

static int fold(glow_graph *g, const fq *f, int qi) {
  glow_node *qn = &g->nodes[qi];
  if (qn->nin < 3 || qn->in[2] < 0 || !is_const(g, qn->in[1]) || glow_value_numel(&g->vals[qn->in[1]]) != 1)
    return 0;
  int y = qn->in[0], pi = g->vals[y].producer;
  if (pi < 0 || f->uses[y] != 1 || g->vals[y].is_output)
    return 0;
  glow_node *op = &g->nodes[pi];
  int conv = op->op == GLOW_OP_CONV;
  if (!conv && op->op != GLOW_OP_MAT_MUL)
    return 0;
  const glow_node *dx = dq_of(g, f, op->in[0]), *dw = dq_of(g, f, op->in[1]);
  if (!dx || !dw || !is_const(g, dx->in[1]) || !is_const(g, dx->in[2]) ||
      glow_value_numel(&g->vals[dx->in[1]]) != 1 || !is_const(g, dw->in[0]) || !is_const(g, dw->in[1]) ||
      !is_const(g, dw->in[2]) || !int8ish(g->vals[dw->in[0]].dt) || !int8ish(g->vals[dx->in[0]].dt))
    return 0;
  int64_t m = g->vals[dw->in[0]].dims[0], nws = glow_value_numel(&g->vals[dw->in[1]]);
  if (nws != 1 && (!conv || nws != m || glow_attr_int(dw, "axis", 1) != 0))
    return 0;
  int b = -1;
  if (conv && op->nin > 2 && op->in[2] >= 0 && (b = bias_int32(g, op->in[2], dx->in[1], dw->in[1], m)) < 0)
    return 0;
  qn = &g->nodes[qi]; /* values were added */
  op = &g->nodes[pi];
  dx = &g->nodes[g->vals[op->in[0]].producer];
  dw = &g->nodes[g->vals[op->in[1]].producer];
  int in[9] = {dx->in[0], dx->in[1], dx->in[2], dw->in[0], dw->in[1], dw->in[2], qn->in[1], qn->in[2], b};
  int nin = b >= 0 ? 9 : 8;
  qn->op = conv ? f->qconv : f->qmatmul;
  qn->in = glow_xrealloc(qn->in, sizeof(int) * 9);
  memcpy(qn->in, in, sizeof(int) * (size_t)nin);
  qn->nin = nin;
  if (conv) { /* the Conv's attributes move; QuantizeLinear's own (axis) go */
    for (int a = 0; a < qn->nattr; a++)
      free(qn->attrs[a].name);
    free(qn->attrs);
    qn->attrs = op->attrs;
    qn->nattr = op->nattr;
    op->attrs = NULL;
    op->nattr = 0;
  }
  op->dead = 1;
  return 1;
}

int glow_pass_fold_qdq(glow_graph *g, const glow_pass_options *o) {
  fq f = {glow_op_from_onnx("QuantizeLinear"), glow_op_from_onnx("DequantizeLinear"),
          glow_op_from_onnx("QLinearConv"), glow_op_from_onnx("QLinearMatMul"), NULL};
  if (f.q == GLOW_OP_COUNT || f.qconv == GLOW_OP_COUNT || f.qmatmul == GLOW_OP_COUNT)
    return 0;
  f.uses = glow_use_counts(g);
  int folded = 0;
  for (int i = 0; i < g->nnodes; i++)
    if (!g->nodes[i].dead && g->nodes[i].op == f.q)
      folded += fold(g, &f, i);
  free(f.uses);
  /* What is left of DequantizeLinear on constants (infer-fold leaves them to this
   * pass) becomes float constants, unless the value is a graph output. */
  for (int i = 0; i < g->nnodes; i++) {
    glow_node *n = &g->nodes[i];
    int konst = !n->dead && n->op == f.dq && !g->vals[n->out[0]].is_output;
    for (int k = 0; konst && k < n->nin; k++)
      konst = n->in[k] < 0 || is_const(g, n->in[k]);
    if (konst && glow_interp_fold_node(g, i))
      return -1;
  }
  if (o->verbose && folded)
    glow_note("fold-qdq: %d QDQ patterns became QLinearConv/QLinearMatMul\n", folded);
  return 0;
}
