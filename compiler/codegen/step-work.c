/* The split decision of -num-threads: a step splits into parts only when each
 * part gets enough work to pay for handing it to another thread (the pool wakes
 * a spinning worker in about a microsecond, and a part's share of a small step
 * is less than that). Work is an estimate: multiply-adds for convolutions and
 * matrix products (outputs times the reduction), for the rest the first input's
 * elements or the output's, the larger (pooling reads each input about once per
 * tap, elementwise each once, a broadcast writes each output once). */
#include "codegen/codegen-internal.h"

static int64_t numel(const glow_graph *g, int id) { return id >= 0 ? glow_value_numel(&g->vals[id]) : 0; }

int64_t glow_step_work(const glow_graph *g, const glow_node *n) {
  int64_t out = n->nout > 0 ? numel(g, n->out[0]) : 0;
  int wi = n->op == GLOW_OP_CONV || n->op == GLOW_OP_CONV_INTEGER ? 1 : n->op == GLOW_OP_QLINEAR_CONV ? 3 : -1;
  if (wi >= 0 && n->nin > wi) { /* W: M x C/group x taps, so each output sums numel(W) / M products */
    const glow_value *w = &g->vals[n->in[wi]];
    return w->rank > 0 && w->dims[0] > 0 ? out * (glow_value_numel(w) / w->dims[0]) : out;
  }
  if (n->op == GLOW_OP_CONV_WINOGRAD && n->nin > 1) /* U: M x C x 6 x 6; the direct conv's 9 C products */
    return out * 9 * g->vals[n->in[1]].dims[1];
  if (n->op == GLOW_OP_GEMM || n->op == GLOW_OP_MAT_MUL || n->op == GLOW_OP_QLINEAR_MAT_MUL ||
      n->op == GLOW_OP_MAT_MUL_INTEGER) {
    const glow_value *a = &g->vals[n->in[0]];
    int trans_a = n->op == GLOW_OP_GEMM && glow_attr_int(n, "transA", 0);
    int64_t k = a->rank == 0 ? 1 : trans_a && a->rank == 2 ? a->dims[0] : a->dims[a->rank - 1];
    return out * k;
  }
  /* The larger of the first input and the output: a broadcast's output (squeeze-excite's
   * per-channel scale, Mul(s, x) with s of 1 x C x 1 x 1) outgrows its first input. */
  int64_t in0 = n->nin > 0 ? numel(g, n->in[0]) : 0;
  return in0 > out ? in0 : out;
}
