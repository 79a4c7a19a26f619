/* require imported graph in topological order; maintains order.
 * Infers dtype and shape of every value, node by node, and evaluates nodes
 * whose inputs are all constant, so shape subgraphs (Shape, Gather, Concat
 * feeding Reshape) become constants before the next node needs them. */
#include "glowc.h"

/* Larger tensors are refused (a bundle's areas are addressed with 64-bit
 * offsets, but no real model comes near this; a corrupt shape does). */
#define MAX_TENSOR_BYTES ((int64_t)1 << 36)
/* Constant folding stops at outputs this large: they stay computed at run time. */
#define MAX_FOLD_BYTES ((int64_t)1 << 28)

static int check_sizes(const glow_graph *g, const glow_node *n, int64_t *total) {
  *total = 0;
  for (int i = 0; i < n->nout; i++) {
    if (n->out[i] < 0)
      continue;
    const glow_value *v = &g->vals[n->out[i]];
    int64_t bytes = (int64_t)glow_dtype_size(v->dt);
    for (int d = 0; d < v->rank; d++) {
      if (v->dims[d] < 0 || (v->dims[d] && bytes > MAX_TENSOR_BYTES / v->dims[d]))
        return glow_node_error(g, n, "output '%s' would be larger than %lld bytes (dimension %d is %lld)", v->name,
                               (long long)MAX_TENSOR_BYTES, d, (long long)v->dims[d]);
      bytes *= v->dims[d];
    }
    *total += bytes;
  }
  return 0;
}

/* Nodes that must never be folded even with constant inputs. */
static int foldable(const glow_graph *g, const glow_node *n) {
  const glow_op_info *oi = glow_op_get(n->op);
  if (!oi->eval || n->op == GLOW_OP_DEQUANTIZE_LINEAR)
    return 0; /* fold-qdq folds DequantizeLinear of constants, after fusing those it can */
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
    int64_t bytes;
    if (glow_op_get(n->op)->infer(g, n) || check_sizes(g, n, &bytes)) {
      rc = -1;
      continue;
    }
    if (bytes <= MAX_FOLD_BYTES && foldable(g, n) && glow_interp_fold_node(g, i))
      rc = -1;
  }
  return rc;
}
