/* require imported graph in topological order; maintains order.
 * Infers dtype and shape of every value, node by node, and evaluates nodes
 * whose inputs are all constant, so shape subgraphs (Shape, Gather, Concat
 * feeding Reshape) become constants before the next node needs them. */
#include "glowc.h"

/* Nodes that must never be folded even with constant inputs. */
static int foldable(const glow_graph *g, const glow_node *n) {
  const glow_op_info *oi = glow_op_get(n->op);
  if (!oi->eval)
    return 0;
  for (int i = 0; i < n->nin; i++)
    if (n->in[i] >= 0 && g->vals[n->in[i]].kind != GLOW_VAL_CONST)
      return 0;
  for (int i = 0; i < n->nout; i++)
    if (n->out[i] >= 0 && g->vals[n->out[i]].is_output)
      return 0; /* keep graph outputs computed by the bundle */
  return 1;
}

int glow_pass_infer_fold(glow_graph *g, const glow_pass_options *o) {
  int rc = 0;
  (void)o;
  for (int i = 0; i < g->nnodes; i++) {
    glow_node *n = &g->nodes[i];
    if (n->dead)
      continue;
    int ready = 1;
    for (int k = 0; k < n->nin; k++)
      if (n->in[k] >= 0 && g->vals[n->in[k]].rank < 0)
        ready = 0; /* an earlier node failed; its error is already reported */
    if (!ready) {
      rc = -1;
      continue;
    }
    if (glow_op_get(n->op)->infer(g, n)) {
      rc = -1;
      continue;
    }
    if (foldable(g, n) && glow_interp_fold_node(g, i))
      rc = -1;
  }
  return rc;
}
