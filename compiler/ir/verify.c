/* IR verifier, run between passes in debug builds: catches pass bugs early. */
#include "glowc.h"

int glow_graph_verify(const glow_graph *g) {
  for (int i = 0; i < g->nnodes; i++) {
    const glow_node *n = &g->nodes[i];
    if (n->dead)
      continue;
    for (int k = 0; k < n->nin; k++) {
      int id = n->in[k];
      GLOW_ASSERT(id >= -1 && id < g->nvals);
      if (id >= 0 && g->vals[id].producer >= 0)
        GLOW_ASSERT(g->vals[id].producer < i); /* topological order */
    }
    for (int k = 0; k < n->nout; k++) {
      int id = n->out[k];
      GLOW_ASSERT(id >= -1 && id < g->nvals);
      if (id >= 0) {
        GLOW_ASSERT(g->vals[id].producer == i);
        GLOW_ASSERT(g->vals[id].rank >= 0);
      }
    }
  }
  for (int i = 0; i < g->noutputs; i++)
    GLOW_ASSERT(g->outputs[i] >= 0 && g->outputs[i] < g->nvals);
  return 0;
}
