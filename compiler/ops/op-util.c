/* Helpers shared by op definitions. */
#include <stdlib.h>
#include <string.h>

#include "ops/op-util.h"

int glow_infer_same_as_input(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  for (int i = 0; i < n->nout; i++)
    if (n->out[i] >= 0)
      glow_value_set_shape(glow_out(g, n, i), x->dt, x->rank, x->dims);
  return 0;
}

int glow_broadcast_shape(const glow_graph *g, const glow_node *n, int64_t *out_dims) {
  int r = 0;
  for (int i = 0; i < n->nin; i++)
    if (glow_in(g, n, i) && glow_in(g, n, i)->rank > r)
      r = glow_in(g, n, i)->rank;
  for (int d = 0; d < r; d++)
    out_dims[d] = 1;
  for (int i = 0; i < n->nin; i++) {
    const glow_value *v = glow_in(g, n, i);
    if (!v)
      continue;
    for (int d = 0; d < v->rank; d++) {
      int od = r - v->rank + d;
      int64_t a = out_dims[od], b = v->dims[d];
      if (a == b || b == 1)
        continue;
      if (a == 1) {
        out_dims[od] = b;
        continue;
      }
      char s1[128], s2[128];
      return glow_node_error(g, n, "input shapes cannot be broadcast together: %s and %s",
                             glow_shape_str(glow_in(g, n, 0), s1, sizeof s1), glow_shape_str(v, s2, sizeof s2));
    }
  }
  return r;
}

void glow_dense_strides(int rank, const int64_t *dims, int64_t *strides) {
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; d--) {
    strides[d] = s;
    s *= dims[d];
  }
}

void glow_broadcast_strides(const glow_value *v, int r, const int64_t *dims, int64_t *strides) {
  int64_t own[GLOW_MAX_RANK];
  glow_dense_strides(v->rank, v->dims, own);
  for (int d = 0; d < r; d++) {
    int vd = d - (r - v->rank);
    strides[d] = vd < 0 || v->dims[vd] == 1 ? 0 : own[vd];
  }
  (void)dims;
}

int64_t glow_extent(const glow_value *v, int from, int to) {
  int64_t e = 1;
  for (int d = from; d < to; d++)
    e *= v->dims[d];
  return e;
}

int glow_norm_axis(const glow_graph *g, const glow_node *n, int64_t axis, int rank) {
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= (rank ? rank : 1))
    return glow_node_error(g, n, "axis %lld is out of range for a tensor of rank %d", (long long)axis, rank);
  return (int)a;
}

int glow_lower_copy(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_kcall_init(kc, "glow_k_copy");
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_count a = {.n = (int64_t)glow_value_bytes(glow_out(g, n, 0))};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

int glow_eval_copy(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  memcpy(outs[0], ins[0], glow_value_bytes(glow_out(g, n, 0)));
  return 0;
}

/* Why value id is not a constant, for a message: the graph inputs it is
 * computed from, each with the -bind-input option that fixes it (the
 * conformance harness and users act on those), or the node that could not be
 * evaluated. One walk up the producers, each value visited once. */
static void not_const_why(const glow_graph *g, int id, glow_strbuf *why) {
  char *seen = glow_xcalloc((size_t)g->nvals, 1);
  int *stack = glow_xmalloc(sizeof(int) * (size_t)g->nvals), top = 0, ninputs = 0, stuck = -1;
  glow_strbuf opts = {0};
  stack[top++] = id;
  seen[id] = 1;
  while (top > 0) {
    const glow_value *v = &g->vals[stack[--top]];
    if (v->kind == GLOW_VAL_INPUT) {
      glow_sb_printf(why, "%s'%s'", ninputs ? ", " : "", v->name);
      glow_sb_printf(&opts, " -bind-input=%s,<tensor.pb>", v->name);
      ninputs++;
    } else if (v->kind != GLOW_VAL_CONST && v->producer >= 0) {
      const glow_node *p = &g->nodes[v->producer];
      int before = top;
      for (int k = 0; k < p->nin; k++)
        if (p->in[k] >= 0 && !seen[p->in[k]]) {
          seen[p->in[k]] = 1;
          stack[top++] = p->in[k];
        }
      if (top == before && stuck < 0)
        stuck = v->producer;
    }
  }
  if (g->vals[id].kind == GLOW_VAL_INPUT) {
    glow_sb_free(why);
    glow_sb_printf(why, "glowc compiles static shapes (bind it to fixed values with%s)", opts.s);
  } else if (ninputs) {
    glow_strbuf head = {0};
    glow_sb_printf(&head, "glowc compiles static shapes, and it is computed from graph input%s %s (bind %s to fixed "
                          "values with%s)", ninputs > 1 ? "s" : "", why->s, ninputs > 1 ? "them" : "it", opts.s);
    glow_sb_free(why);
    *why = head;
  } else if (stuck >= 0) {
    glow_sb_printf(why, "node '%s' (%s), which computes it, could not be evaluated at compile time",
                   g->nodes[stuck].name, glow_op_get(g->nodes[stuck].op)->onnx_name);
  } else {
    glow_sb_printf(why, "it could not be evaluated at compile time");
  }
  glow_sb_free(&opts);
  free(stack);
  free(seen);
}

int glow_need_const_ints(const glow_graph *g, const glow_node *n, int idx, const char *what, int64_t *v, int cap) {
  int id = idx < n->nin ? n->in[idx] : -1;
  if (id < 0)
    return glow_node_error(g, n, "input %d (%s) is missing", idx, what);
  const glow_value *c = &g->vals[id];
  if (c->kind != GLOW_VAL_CONST) {
    glow_strbuf why = {0};
    not_const_why(g, id, &why);
    glow_node_error(g, n, "input '%s' (%s) must be a compile-time constant: %s", c->name, what, why.s);
    glow_sb_free(&why);
    return -1;
  }
  int k = glow_const_ints(g, id, v, cap);
  if (k < 0)
    return glow_node_error(g, n, "input '%s' (%s) must be an integer tensor of at most %d elements", c->name, what, cap);
  return k;
}

int glow_need_const_int_scalar(const glow_graph *g, const glow_node *n, int idx, const char *what, int64_t lo,
                               int64_t hi, int64_t *v) {
  const glow_value *c = glow_in(g, n, idx);
  if (c && ((c->dt != GLOW_DT_I32 && c->dt != GLOW_DT_I64) || glow_value_numel(c) != 1))
    return glow_node_error(g, n, "%s must be an int32 or int64 scalar", what);
  if (glow_need_const_ints(g, n, idx, what, v, 1) != 1)
    return -1;
  if (*v < lo || *v > hi)
    return glow_node_error(g, n, "%s %lld is out of range (%lld to %lld)", what, (long long)*v, (long long)lo,
                           (long long)hi);
  return 0;
}
