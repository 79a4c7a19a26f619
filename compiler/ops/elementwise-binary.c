/* Binary elementwise ops with numpy broadcasting. */
#include "ops/op-util.h"

static int infer_binary(glow_graph *g, glow_node *n) {
  const glow_value *a = glow_in(g, n, 0), *b = glow_in(g, n, 1);
  if (a->dt != b->dt)
    return glow_node_error(g, n, "input types differ: %s and %s", glow_dtype_name(a->dt), glow_dtype_name(b->dt));
  int64_t dims[GLOW_MAX_RANK];
  int r = glow_broadcast_shape(g, n, dims);
  if (r < 0)
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), a->dt, r, dims);
  return 0;
}

static int eval_add(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *o = glow_out(g, n, 0);
  int64_t as[GLOW_MAX_RANK], bs[GLOW_MAX_RANK], idx[GLOW_MAX_RANK] = {0};
  glow_broadcast_strides(glow_in(g, n, 0), o->rank, o->dims, as);
  glow_broadcast_strides(glow_in(g, n, 1), o->rank, o->dims, bs);
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    int64_t ai = 0, bi = 0;
    for (int d = 0; d < o->rank; d++) {
      ai += idx[d] * as[d];
      bi += idx[d] * bs[d];
    }
    glow_elem_set(o->dt, outs[0], i, glow_elem_get(o->dt, ins[0], ai) + glow_elem_get(o->dt, ins[1], bi));
    for (int d = o->rank - 1; d >= 0 && ++idx[d] == o->dims[d]; d--)
      idx[d] = 0;
  }
  return 0;
}

static int lower_binary(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *o = glow_out(g, n, 0);
  if (o->dt != GLOW_DT_F32)
    return glow_node_error(g, n, "no kernel for type %s", glow_dtype_name(o->dt));
  int r = o->rank ? o->rank : 1;
  int64_t dims[GLOW_MAX_RANK] = {1}, as[GLOW_MAX_RANK] = {0}, bs[GLOW_MAX_RANK] = {0};
  for (int d = 0; d < o->rank; d++)
    dims[d] = o->dims[d];
  glow_broadcast_strides(glow_in(g, n, 0), o->rank, o->dims, as);
  glow_broadcast_strides(glow_in(g, n, 1), o->rank, o->dims, bs);
  glow_kcall_init(kc, "glow_k_add_f32");
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, n->in[1]);
  glow_kcall_param(kc, r);
  glow_kcall_params(kc, r, dims);
  glow_kcall_params(kc, r, as);
  glow_kcall_params(kc, r, bs);
  return 0;
}

const glow_op_info glow_op_ADD = {"Add", 2, 2, 1, 1, infer_binary, eval_add, lower_binary};
