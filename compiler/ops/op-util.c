/* Helpers shared by op definitions. */
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
  glow_kcall_param(kc, (int64_t)glow_value_bytes(glow_out(g, n, 0)));
  return 0;
}

int glow_eval_copy(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  memcpy(outs[0], ins[0], glow_value_bytes(glow_out(g, n, 0)));
  return 0;
}

int glow_need_const_ints(const glow_graph *g, const glow_node *n, int idx, const char *what, int64_t *v, int cap) {
  int id = idx < n->nin ? n->in[idx] : -1;
  if (id < 0)
    return glow_node_error(g, n, "input %d (%s) is missing", idx, what);
  const glow_value *c = &g->vals[id];
  if (c->kind != GLOW_VAL_CONST)
    return glow_node_error(g, n, "input '%s' (%s) must be a compile-time constant: glowc compiles static shapes "
                                 "(bind it to fixed values with -bind-input=%s,<tensor.pb>)", c->name, what, c->name);
  int k = glow_const_ints(g, id, v, cap);
  if (k < 0)
    return glow_node_error(g, n, "input '%s' (%s) must be an integer tensor of at most %d elements", c->name, what, cap);
  return k;
}
