/* Reference interpreter: runs the graph node by node with each op's eval();
 * the oracle for tests, the constant folder, and the profiler's engine (an
 * observer sees every float value as soon as it is computed). */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

static int eval_node(const glow_graph *g, const glow_node *n, void **buf) {
  const glow_op_info *oi = glow_op_get(n->op);
  if (!oi->eval)
    return glow_node_error(g, n, "the bundle's caller computes this op (a TFLite custom operator: the bundle "
                           "calls out to it), which the reference interpreter cannot: it cannot run or profile "
                           "this model");
  /* Optional inputs and outputs past the node's count read as NULL. */
  const void *ins[64] = {0};
  void *outs[64] = {0};
  GLOW_ASSERT(n->nin <= 64 && n->nout <= 64);
  for (int i = 0; i < n->nin; i++)
    ins[i] = n->in[i] >= 0 ? buf[n->in[i]] : NULL;
  for (int i = 0; i < n->nout; i++)
    outs[i] = n->out[i] >= 0 ? buf[n->out[i]] : NULL;
  return oi->eval(g, n, outs, ins);
}

int glow_interp_observes(const glow_graph *g, int value_id) {
  const glow_value *v = &g->vals[value_id];
  return v->kind != GLOW_VAL_CONST && v->rank >= 0 && glow_dtype_is_float(v->dt);
}

static void observe(const glow_graph *g, int id, void **buf, glow_interp_observer cb, void *ctx) {
  if (id >= 0 && glow_interp_observes(g, id))
    cb(ctx, g, id, buf[id]);
}

int glow_interp_run(const glow_graph *g, const glow_tensor *inputs, glow_tensor *outputs) {
  return glow_interp_run_observed(g, inputs, outputs, NULL, NULL);
}

int glow_interp_run_observed(const glow_graph *g, const glow_tensor *inputs, glow_tensor *outputs,
                             glow_interp_observer cb, void *ctx) {
  void **buf = glow_xcalloc((size_t)g->nvals, sizeof *buf);
  int rc = 0;
  for (int i = 0; i < g->nvals; i++) {
    const glow_value *v = &g->vals[i];
    if (v->kind == GLOW_VAL_CONST)
      buf[i] = v->data;
    else if (v->rank >= 0)
      buf[i] = glow_xcalloc(1, glow_value_bytes(v) + 1);
  }
  for (int i = 0; i < g->ninputs; i++) {
    const glow_value *v = &g->vals[g->inputs[i]];
    memcpy(buf[g->inputs[i]], inputs[i].data, glow_value_bytes(v));
    if (cb)
      observe(g, g->inputs[i], buf, cb, ctx);
  }
  /* Nodes are kept in topological order by the importer and every pass. */
  for (int i = 0; i < g->nnodes && !rc; i++) {
    const glow_node *n = &g->nodes[i];
    if (n->dead)
      continue;
    rc = eval_node(g, n, buf);
    for (int k = 0; cb && !rc && k < n->nout; k++)
      observe(g, n->out[k], buf, cb, ctx);
  }
  for (int i = 0; i < g->noutputs && !rc; i++) {
    const glow_value *v = &g->vals[g->outputs[i]];
    glow_tensor *t = &outputs[i];
    t->dt = v->dt;
    t->rank = v->rank;
    memcpy(t->dims, v->dims, sizeof t->dims);
    t->data = glow_xmalloc(glow_value_bytes(v));
    memcpy(t->data, buf[g->outputs[i]], glow_value_bytes(v));
  }
  for (int i = 0; i < g->nvals; i++)
    if (g->vals[i].kind != GLOW_VAL_CONST)
      free(buf[i]);
  free(buf);
  return rc;
}

int glow_interp_fold_node(glow_graph *g, int node_id) {
  glow_node *n = &g->nodes[node_id];
  void **buf = glow_xcalloc((size_t)g->nvals, sizeof *buf);
  for (int i = 0; i < n->nin; i++)
    if (n->in[i] >= 0)
      buf[n->in[i]] = g->vals[n->in[i]].data;
  for (int i = 0; i < n->nout; i++)
    if (n->out[i] >= 0)
      buf[n->out[i]] = glow_xcalloc(1, glow_value_bytes(&g->vals[n->out[i]]) + 1);
  int rc = eval_node(g, n, buf);
  for (int i = 0; i < n->nout; i++) {
    int id = n->out[i];
    if (id < 0)
      continue;
    if (!rc) {
      glow_value *v = &g->vals[id];
      free(v->data);
      v->data = buf[id];
      v->kind = GLOW_VAL_CONST;
      v->producer = -1;
    } else {
      free(buf[id]);
    }
  }
  if (!rc)
    n->dead = 1;
  free(buf);
  return rc;
}
