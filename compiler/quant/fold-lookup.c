/* optional; maintains order. int8 lookup tables. A float op of one input
 * between a DequantizeLinear and a QuantizeLinear, both per tensor,
 *   y_q = QuantizeLinear(f(DequantizeLinear(x_q, xs, xz)), ys, yz)
 * (f: Sigmoid, Tanh and the other activations below) gives one of 256 values
 * for the 256 bytes of x_q: it becomes IntLookupTable(x_q, T), T computed here
 * with the kernels' float32 arithmetic for the (de)quantization and f in
 * double. Then QLinearMul(x_q, IntLookupTable(x_q)) (x sigmoid(x), SiLU as the
 * quantizer leaves it in efficientnet) is a function of x_q's byte too, one
 * table, with QLinearMul's arithmetic. Each replaces 3 or 4 passes over a
 * tensor, 2 of them in float, with one over bytes. The float op's result and
 * the table replaced by the product must have no other consumer (the
 * DequantizeLinear may: it stays for them); anything else stays as it was
 * (dead-nodes removes what is left). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops/quant-util.h"
#include "quant/quant.h"

static int is_const(const glow_graph *g, int id) { return id >= 0 && g->vals[id].kind == GLOW_VAL_CONST; }

/* f(x) of the ops made tables, with their attributes' ONNX defaults; 0 for others. */
static int activation(const glow_node *n, double x, double *y) {
  switch (n->op) {
  case GLOW_OP_SIGMOID:
    *y = 1 / (1 + exp(-x));
    return 1;
  case GLOW_OP_TANH:
    *y = tanh(x);
    return 1;
  case GLOW_OP_RELU:
    *y = x > 0 ? x : 0;
    return 1;
  case GLOW_OP_LEAKYRELU:
    *y = x >= 0 ? x : glow_attr_float(n, "alpha", 0.01) * x;
    return 1;
  case GLOW_OP_HARDSIGMOID:
    *y = fmax(0, fmin(1, glow_attr_float(n, "alpha", 0.2) * x + glow_attr_float(n, "beta", 0.5)));
    return 1;
  case GLOW_OP_HARDSWISH:
    *y = x * fmax(0, fmin(1, x / 6 + 0.5));
    return 1;
  case GLOW_OP_ELU:
    *y = x >= 0 ? x : glow_attr_float(n, "alpha", 1.0) * (exp(x) - 1);
    return 1;
  case GLOW_OP_SOFTPLUS:
    *y = x > 30 ? x : log1p(exp(x));
    return 1;
  case GLOW_OP_EXP:
    *y = exp(x);
    return 1;
  default:
    return 0;
  }
}

/* The value of byte b of an int8 (sgn) or uint8 tensor. */
static int32_t byte_value(int b, int sgn) { return sgn ? (int32_t)(int8_t)b : b; }

/* Per-tensor scale and zero point of a (De)QuantizeLinear or a QLinear op's inputs s, z: 0 if not constants. */
static int per_tensor(const glow_graph *g, int s, int z, float *scale, int32_t *zero) {
  if (!is_const(g, s) || glow_value_numel(&g->vals[s]) != 1 || g->vals[s].dt != GLOW_DT_F32 ||
      (z >= 0 && (!is_const(g, z) || glow_value_numel(&g->vals[z]) != 1)))
    return 0;
  *scale = *(const float *)g->vals[s].data;
  *zero = z >= 0 ? (int32_t)glow_elem_geti(g->vals[z].dt, g->vals[z].data, 0) : 0;
  return 1;
}

static int only_use(const glow_graph *g, const int *uses, int v) { return uses[v] == 1 && !g->vals[v].is_output; }

/* Node qi as IntLookupTable in place, reading x with `table`; ys, yz: its output's scale and zero point. */
static void make_lookup(glow_graph *g, int qi, int x, const uint8_t *table, glow_dtype dt, int ys, int yz) {
  char name[600];
  snprintf(name, sizeof name, "%s.table", g->nodes[qi].name ? g->nodes[qi].name : "lookup");
  int64_t n = 256;
  int t = glow_value_add(g, name);
  glow_value_make_const(g, t, dt, 1, &n, table);
  glow_node *q = &g->nodes[qi];
  for (int a = 0; a < q->nattr; a++)
    free(q->attrs[a].name);
  free(q->attrs);
  q->attrs = NULL;
  q->nattr = 0;
  q->op = GLOW_OP_INT_LOOKUP_TABLE;
  q->in = glow_xrealloc(q->in, sizeof(int) * 4);
  q->in[0] = x;
  q->in[1] = t;
  q->in[2] = ys;
  q->in[3] = yz;
  q->nin = yz >= 0 ? 4 : 3;
}

/* QuantizeLinear qi of f(DequantizeLinear(x)): 1 if it became a table. */
static int fold_activation(glow_graph *g, const int *uses, int qi) {
  const glow_node *q = &g->nodes[qi];
  int fv = q->in[0], fi = g->vals[fv].producer;
  if (fi < 0 || !only_use(g, uses, fv) || g->nodes[fi].nin != 1 || g->vals[fv].dt != GLOW_DT_F32)
    return 0;
  const glow_node *f = &g->nodes[fi];
  int dv = f->in[0], di = g->vals[dv].producer;
  double probe;
  if (!activation(f, 0, &probe) || di < 0 || g->nodes[di].op != GLOW_OP_DEQUANTIZE_LINEAR)
    return 0;
  const glow_node *d = &g->nodes[di];
  int x = d->in[0];
  glow_dtype ydt = g->vals[q->out[0]].dt, xdt = g->vals[x].dt;
  float xs, ys;
  int32_t xz, yz, lo, hi;
  if (!glow_q_is_8bit(xdt) || !glow_q_is_8bit(ydt) || d->nin < 2 || q->nin < 2 ||
      !per_tensor(g, d->in[1], d->nin > 2 ? d->in[2] : -1, &xs, &xz) ||
      !per_tensor(g, q->in[1], q->nin > 2 ? q->in[2] : -1, &ys, &yz))
    return 0;
  glow_q_range(ydt, &lo, &hi);
  uint8_t table[256];
  for (int b = 0; b < 256; b++) {
    double y;
    activation(f, (double)((float)(byte_value(b, xdt == GLOW_DT_I8) - xz) * xs), &y);
    table[b] = (uint8_t)glow_q_saturate((float)y / ys, yz, lo, hi);
  }
  make_lookup(g, qi, x, table, ydt, q->in[1], q->nin > 2 ? q->in[2] : -1);
  return 1;
}

/* QLinearMul mi of x and IntLookupTable(x): 1 if it became a table. */
static int fold_mul(glow_graph *g, const int *uses, int mi) {
  const glow_node *m = &g->nodes[mi];
  if (m->nin < 8)
    return 0;
  for (int side = 0; side < 2; side++) {
    int a = m->in[side ? 3 : 0], b = m->in[side ? 0 : 3], ti = g->vals[b].producer;
    if (ti < 0 || g->nodes[ti].op != GLOW_OP_INT_LOOKUP_TABLE || g->nodes[ti].in[0] != a || !only_use(g, uses, b))
      continue;
    const glow_node *t = &g->nodes[ti];
    glow_dtype dt = g->vals[m->out[0]].dt;
    float as, bs, cs;
    int32_t az, bz, cz, lo, hi;
    if (g->vals[a].dt != dt || g->vals[b].dt != dt || !per_tensor(g, m->in[side ? 4 : 1], m->in[side ? 5 : 2], &as, &az) ||
        !per_tensor(g, m->in[side ? 1 : 4], m->in[side ? 2 : 5], &bs, &bz) || !per_tensor(g, m->in[6], m->in[7], &cs, &cz))
      return 0;
    glow_q_range(dt, &lo, &hi);
    const uint8_t *tv = g->vals[t->in[1]].data;
    uint8_t table[256];
    float mult = as * bs / cs; /* as the kernel (qlinear_mul_q8) computes it */
    for (int v = 0; v < 256; v++) {
      int32_t prod = (byte_value(v, dt == GLOW_DT_I8) - az) * (byte_value(tv[v], dt == GLOW_DT_I8) - bz);
      table[v] = (uint8_t)glow_q_saturate((float)prod * mult + (float)cz, 0, lo, hi);
    }
    make_lookup(g, mi, a, table, dt, m->in[6], m->in[7]);
    return 1;
  }
  return 0;
}

int glow_pass_fold_lookup(glow_graph *g, const glow_pass_options *o) {
  int *uses = glow_use_counts(g);
  int tables = 0, muls = 0;
  for (int i = 0; i < g->nnodes; i++)
    if (!g->nodes[i].dead && g->nodes[i].op == GLOW_OP_QUANTIZE_LINEAR)
      tables += fold_activation(g, uses, i);
  for (int i = 0; i < g->nnodes; i++)
    if (!g->nodes[i].dead && g->nodes[i].op == GLOW_OP_QLINEAR_MUL)
      muls += fold_mul(g, uses, i);
  free(uses);
  if (o->verbose && tables + muls)
    glow_note("fold-lookup: %d activations and %d products with them became int8 tables\n", tables, muls);
  return 0;
}
