/* A -model-input batch other than the model's: shapes inferred at both batches
 * (the importer's graph twice) name the node that fixes the model's batch when the
 * given one fails there, or turns an output into something other than the model's
 * output at another batch. Glow lets the batch change; most models take it, but a
 * constant shape (a Reshape to [1,-1]) fixes it, and the error then shows only
 * further on, at a node that cannot take what the Reshape made. */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

/* How a value at the given batch relates to the same value at the model's. */
enum { SAME, BATCHED, SCALED, BROKEN, UNKNOWN };

typedef struct {
  glow_graph *g, *a; /* at the given batch, at the model's */
  const int64_t *given, *model;
  int n;
  int *prod; /* the node (dead or not) that computes each value of g, or -1 */
} bc;

/* SAME shape; BATCHED: dimension 0 scaled by given/model; SCALED: another
 * dimension scaled so (the batch merged into it); else BROKEN. */
static int relation(const bc *c, int id) {
  if (id < 0)
    return SAME;
  const glow_value *a = &c->a->vals[id], *b = &c->g->vals[id];
  if (a->rank < 0 || b->rank < 0)
    return UNKNOWN;
  if (a->rank != b->rank)
    return BROKEN;
  int diff = -1;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) {
      if (diff >= 0)
        return BROKEN;
      diff = d;
    }
  if (diff < 0)
    return SAME;
  for (int i = 0; i < c->n; i++)
    if (a->dims[diff] * c->given[i] == b->dims[diff] * c->model[i])
      return diff ? SCALED : BATCHED;
  return BROKEN;
}

/* Node i's inputs all have shapes in g, but one of its outputs has none: its inference failed. */
static int failed(const glow_graph *g, int i) {
  const glow_node *n = &g->nodes[i];
  int none = 0;
  for (int k = 0; k < n->nin; k++)
    if (n->in[k] >= 0 && g->vals[n->in[k]].rank < 0)
      return 0;
  for (int k = 0; k < n->nout; k++)
    none |= n->out[k] >= 0 && g->vals[n->out[k]].rank < 0;
  return !n->dead && none;
}

/* The first node, in order, among `sym` and the nodes it reads from, that reads
 * values of the model's batch or the given one (or none) and makes one that is
 * neither; -1 if there is none. */
static int culprit(const bc *c, int sym) {
  int nn = c->g->nnodes;
  char *anc = glow_xcalloc((size_t)nn + 1, 1);
  int *stack = glow_xmalloc(sizeof(int) * (size_t)(nn + 1)), sp = 0, found = -1;
  anc[sym] = 1;
  stack[sp++] = sym;
  while (sp) {
    const glow_node *n = &c->g->nodes[stack[--sp]];
    for (int k = 0; k < n->nin; k++) {
      int p = n->in[k] >= 0 ? c->prod[n->in[k]] : -1;
      if (p >= 0 && !anc[p])
        anc[p] = 1, stack[sp++] = p;
    }
  }
  for (int i = 0; i < nn && found < 0; i++) {
    const glow_node *n = &c->g->nodes[i];
    int ok_in = anc[i], bad_out = 0;
    for (int k = 0; ok_in && k < n->nin; k++)
      ok_in = relation(c, n->in[k]) <= BATCHED;
    for (int k = 0; k < n->nout; k++)
      bad_out |= relation(c, n->out[k]) > BATCHED;
    if (ok_in && bad_out)
      found = i;
  }
  free(anc);
  free(stack);
  return found;
}

/* The first output of node i that is not of the model's batch or the given one. */
static int changed_output(const bc *c, int i) {
  const glow_node *n = &c->g->nodes[i];
  for (int k = 0; k < n->nout; k++)
    if (relation(c, n->out[k]) > BATCHED)
      return n->out[k];
  return -1;
}

/* Node i's own error, printed: its inference run again, not quietly. */
static void node_own_error(glow_graph *g, int i) { glow_op_get(g->nodes[i].op)->infer(g, &g->nodes[i]); }

static int report(const bc *c, const char *input, int sym, int out) {
  glow_graph *g = c->g;
  long long given = (long long)c->given[0], model = (long long)c->model[0];
  int cul = sym >= 0 ? culprit(c, sym) : -1;
  if (sym >= 0 && failed(g, sym) && sym != cul)
    node_own_error(g, sym);
  if (out >= 0) {
    char s1[200], s2[200];
    glow_error(g->file, "output '%s' is %s at batch %lld but %s at the model's batch %lld", g->vals[out].name,
               glow_shape_str(&g->vals[out], s1, sizeof s1), given, glow_shape_str(&c->a->vals[out], s2, sizeof s2),
               model);
  }
  if (cul < 0) {
    glow_error(g->file, "-model-input gives '%s' batch %lld, but the model does not take it (its batch is %lld); "
               "compile it at batch %lld", input, given, model, model);
    return -1;
  }
  const glow_node *n = &g->nodes[cul];
  const char *hint = n->op == GLOW_OP_RESHAPE ? ": a Reshape to a constant shape; export the model with -1 or 0 for "
                                                "the batch in the shape, or compute the shape from the input"
                                              : "";
  if (failed(g, cul)) {
    node_own_error(g, cul);
    glow_node_error(g, n, "does not take batch %lld: -model-input gives '%s' batch %lld, and the model fixes batch %lld "
                    "at this node; compile it at batch %lld", given, input, given, model, model);
    return -1;
  }
  int id = changed_output(c, cul);
  char s1[200], s2[200];
  glow_node_error(g, n, "does not take batch %lld: -model-input gives '%s' batch %lld, and the model fixes batch %lld "
                  "at this node (its output '%s' is %s at batch %lld, %s at batch %lld)%s; compile it at batch %lld",
                  given, input, given, model, g->vals[id].name, glow_shape_str(&g->vals[id], s1, sizeof s1), given,
                  glow_shape_str(&c->a->vals[id], s2, sizeof s2), model, hint, model);
  return -1;
}

int glow_batch_check(glow_graph *given, glow_graph *model, const char *input, const int64_t *given_batch,
                     const int64_t *model_batch, int n) {
  glow_pass_options po;
  memset(&po, 0, sizeof po);
  int was = glow_set_quiet(1);
  int rc_model = glow_pass_infer_fold(model, &po), rc_given = glow_pass_infer_fold(given, &po);
  glow_set_quiet(was);
  if (rc_model || given->nnodes != model->nnodes || given->nvals != model->nvals || !n)
    return 0; /* not the batch's doing: compiling the model reports it */
  bc c = {given, model, given_batch, model_batch, n, glow_xmalloc(sizeof(int) * (size_t)(given->nvals + 1))};
  for (int v = 0; v < given->nvals; v++)
    c.prod[v] = -1;
  for (int i = 0; i < given->nnodes; i++)
    for (int k = 0; k < given->nodes[i].nout; k++)
      if (given->nodes[i].out[k] >= 0)
        c.prod[given->nodes[i].out[k]] = i;
  int sym = -1, out = -1;
  for (int i = 0; rc_given && i < given->nnodes && sym < 0; i++)
    if (failed(given, i))
      sym = i;
  for (int i = 0; !rc_given && i < given->noutputs && out < 0; i++)
    if (relation(&c, given->outputs[i]) == BROKEN)
      out = given->outputs[i], sym = c.prod[out];
  int rc = rc_given || out >= 0 ? report(&c, input, sym, out) : 0;
  free(c.prod);
  return rc;
}
