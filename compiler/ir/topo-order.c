/* Topological order of the nodes, for passes that append nodes read by earlier ones
 * (graph-pass plugins): each node is placed after the producers of its inputs, found
 * depth first in node order, so an ordered graph keeps its order exactly. */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

int glow_graph_topo_order(glow_graph *g) {
  int n = g->nnodes;
  char *state = glow_xcalloc((size_t)n + 1, 1); /* 0 unseen, 1 on the stack, 2 placed */
  int *order = glow_xmalloc(sizeof(int) * (size_t)(n + 1));
  int *stack = glow_xmalloc(sizeof(int) * (size_t)(n + 1));
  int *next = glow_xcalloc((size_t)n + 1, sizeof(int)); /* the next input to look at */
  int norder = 0, cycle = 0;
  for (int r = 0; r < n && !cycle; r++) {
    if (state[r])
      continue;
    int sp = 0;
    stack[sp++] = r;
    state[r] = 1;
    while (sp && !cycle) {
      int x = stack[sp - 1];
      const glow_node *nd = &g->nodes[x];
      if (!nd->dead && next[x] < nd->nin) {
        int v = nd->in[next[x]++];
        int p = v >= 0 ? g->vals[v].producer : -1;
        if (p < 0 || g->nodes[p].dead || state[p] == 2)
          continue;
        if (state[p] == 1)
          cycle = 1;
        state[p] = 1;
        stack[sp++] = p;
      } else {
        state[x] = 2;
        order[norder++] = x;
        sp--;
      }
    }
  }
  if (!cycle) {
    int *where = next; /* old id -> new id */
    glow_node *nodes = glow_xmalloc(sizeof *nodes * (size_t)(g->capnodes ? g->capnodes : 1));
    for (int i = 0; i < n; i++) {
      nodes[i] = g->nodes[order[i]];
      where[order[i]] = i;
    }
    free(g->nodes);
    g->nodes = nodes;
    for (int i = 0; i < g->nvals; i++)
      if (g->vals[i].producer >= 0)
        g->vals[i].producer = where[g->vals[i].producer];
  }
  free(state);
  free(order);
  free(stack);
  free(next);
  return cycle ? -1 : 0;
}
