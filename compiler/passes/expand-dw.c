/* require shapes; maintains order. A float32 1x1 Conv (lowered as a matrix product)
 * whose output T only a depthwise Conv reads, the pair of each inverted residual block,
 * becomes one ExpandDepthwise node (ops/nn-conv-expand-dw.c) in the depthwise Conv's
 * place, where T outgrows what a band of the fused kernel holds: its kernel runs the
 * two in bands of rows, so that T is read back from cache, not memory. T stays a value
 * of the graph (the node's second output), with its place in the activations. Runs when
 * compiling only (compile.c), after winograd and pack-conv-weights, on the targets with
 * room on the stack for the big kernels' buffers (o->conv_winograd). */
#include <stdlib.h>

#include "glowc.h"

/* T's elements under which one band holds all of it (kernels/conv-expand-dw.c's
 * EXPAND_DW_BAND_FLOATS): there the two kernels alone do the same. */
#define EXPAND_DW_MIN_T (96 * 1024)

static void fuse(glow_graph *g, int ei, int di) {
  glow_node *e = &g->nodes[ei], *d = &g->nodes[di];
  int in[6] = {e->in[0], e->in[1], e->nin > 2 ? e->in[2] : -1, d->in[1], d->nin > 2 ? d->in[2] : -1,
               d->nin > 3 ? d->in[3] : -1};
  int out[2] = {d->out[0], e->out[0]};
  int64_t epi = glow_attr_int(e, "glow.epi", 0);
  double a = glow_attr_float(e, "glow.epi_a", 0.0), b = glow_attr_float(e, "glow.epi_b", 0.0);
  free(d->in);
  free(d->out);
  d->in = glow_xmalloc(sizeof in);
  d->out = glow_xmalloc(sizeof out);
  for (int i = 0; i < 6; i++)
    d->in[i] = in[i];
  d->out[0] = out[0], d->out[1] = out[1];
  d->nin = 6, d->nout = 2;
  d->op = GLOW_OP_CONV_EXPAND_DW;
  glow_attr_add_int(d, "glow.expand_epi", epi);
  glow_attr_add_float(d, "glow.expand_epi_a", a);
  glow_attr_add_float(d, "glow.expand_epi_b", b);
  e->dead = 1;
}

int glow_pass_expand_dw(glow_graph *g, const glow_pass_options *o) {
  if (!o->conv_winograd)
    return 0;
  /* Each value's one reader among the live nodes (-1: none, -2: more than one). */
  int *reader = glow_xmalloc(sizeof(int) * (size_t)(g->nvals ? g->nvals : 1));
  int *maker = glow_xmalloc(sizeof(int) * (size_t)(g->nvals ? g->nvals : 1));
  for (int v = 0; v < g->nvals; v++)
    reader[v] = maker[v] = -1;
  for (int i = 0; i < g->nnodes; i++) {
    const glow_node *n = &g->nodes[i];
    for (int k = 0; !n->dead && k < n->nin; k++)
      if (n->in[k] >= 0)
        reader[n->in[k]] = reader[n->in[k]] == -1 ? i : -2;
    for (int k = 0; !n->dead && k < n->nout; k++)
      if (n->out[k] >= 0)
        maker[n->out[k]] = i;
  }
  int made = 0;
  for (int di = 0; di < g->nnodes; di++) {
    const glow_node *d = &g->nodes[di];
    if (d->dead || d->op != GLOW_OP_CONV || d->nin < 2 || d->in[0] < 0)
      continue;
    int t = d->in[0], ei = maker[t];
    if (ei < 0 || reader[t] != di || g->vals[t].is_output || glow_value_numel(&g->vals[t]) <= EXPAND_DW_MIN_T ||
        !glow_conv_expand_dw_fit(g, &g->nodes[ei], d))
      continue;
    fuse(g, ei, di);
    made++;
  }
  free(reader);
  free(maker);
  if (o->verbose && made)
    glow_note("expand-dw: %d pairs of a 1x1 conv and a depthwise conv run in bands of rows\n", made);
  return 0;
}
