/* require shapes; maintains order. Removes nodes none of whose outputs reach a graph output. */
#include <stdlib.h>

#include "glowc.h"

int glow_pass_dead_nodes(glow_graph *g, const glow_pass_options *o) {
  char *used = glow_xcalloc((size_t)g->nvals, 1);
  int removed = 0;
  for (int i = 0; i < g->noutputs; i++)
    used[g->outputs[i]] = 1;
  for (int i = g->nnodes - 1; i >= 0; i--) {
    glow_node *n = &g->nodes[i];
    if (n->dead)
      continue;
    int live = 0;
    for (int k = 0; k < n->nout; k++)
      live |= n->out[k] >= 0 && used[n->out[k]];
    if (!live) {
      n->dead = 1;
      removed++;
      continue;
    }
    for (int k = 0; k < n->nin; k++)
      if (n->in[k] >= 0)
        used[n->in[k]] = 1;
  }
  free(used);
  if (o->verbose && removed)
    glow_note("dead-nodes: removed %d nodes\n", removed);
  return 0;
}
