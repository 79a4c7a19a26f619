/* The split decision of -num-threads: a step splits into parts only when each
 * part gets enough work to pay for handing it to another thread (the pool wakes
 * a spinning worker in about a microsecond, and a part's share of a small step
 * is less than that). Work is an estimate: multiply-adds for convolutions and
 * matrix products (outputs times the reduction), input elements for the rest
 * (pooling reads each about once per tap, elementwise once). */
#include <string.h>

#include "codegen/codegen-internal.h"

static int64_t numel(const glow_graph *g, int id) { return id >= 0 ? glow_value_numel(&g->vals[id]) : 0; }

int64_t glow_step_work(const glow_graph *g, const glow_node *n) {
  const char *op = glow_op_get(n->op)->onnx_name;
  int64_t out = n->nout > 0 ? numel(g, n->out[0]) : 0;
  int conv = !strcmp(op, "Conv") || !strcmp(op, "ConvInteger"), qconv = !strcmp(op, "QLinearConv");
  if ((conv && n->nin > 1) || (qconv && n->nin > 3)) {
    const glow_value *w = &g->vals[n->in[conv ? 1 : 3]];
    return w->rank > 0 && w->dims[0] > 0 ? out * (glow_value_numel(w) / w->dims[0]) : out;
  }
  if (!strcmp(op, "Gemm") || !strcmp(op, "MatMul") || !strcmp(op, "QLinearMatMul") || !strcmp(op, "MatMulInteger")) {
    const glow_value *a = &g->vals[n->in[0]];
    int trans_a = !strcmp(op, "Gemm") && glow_attr_int(n, "transA", 0);
    int64_t k = a->rank == 0 ? 1 : trans_a && a->rank == 2 ? a->dims[0] : a->dims[a->rank - 1];
    return out * k;
  }
  return n->nin > 0 ? numel(g, n->in[0]) : out;
}
