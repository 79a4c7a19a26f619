/* Helpers shared by the elementwise ops: dtype checks, numpy broadcasting for
 * reference code and the collapsed broadcast parameters of the kernels. */
#include <string.h>

#include "ops/elementwise-util.h"

glow_ew_domain glow_ew_domain_of(glow_dtype dt) {
  if (glow_dtype_is_float(dt))
    return GLOW_EW_DOM_FLOAT;
  if (glow_dtype_is_unsigned_int(dt))
    return GLOW_EW_DOM_UNSIGNED;
  return GLOW_EW_DOM_SIGNED; /* signed integers and bool */
}

int glow_ew_check_type(const glow_graph *g, const glow_node *n, int i, unsigned mask) {
  glow_dtype dt = glow_in(g, n, i)->dt;
  if (dt > 0 && dt < 32 && (mask & GLOW_EW_BIT(dt)))
    return 0;
  return glow_node_error(g, n, "input %d has type %s, which %s does not support", i, glow_dtype_name(dt),
                         glow_op_get(n->op)->onnx_name);
}

int glow_ew_check_same_types(const glow_graph *g, const glow_node *n) {
  const glow_value *a = glow_in(g, n, 0);
  for (int i = 1; i < n->nin; i++)
    if (glow_in(g, n, i) && glow_in(g, n, i)->dt != a->dt)
      return glow_node_error(g, n, "input types differ: %s and %s", glow_dtype_name(a->dt),
                             glow_dtype_name(glow_in(g, n, i)->dt));
  return 0;
}

int glow_ew_check_legacy_broadcast(const glow_graph *g, const glow_node *n) {
  if (g->opset >= 7 || n->nin != 2)
    return 0;
  const glow_value *a = glow_in(g, n, 0), *b = glow_in(g, n, 1);
  int same = a->rank == b->rank && !memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->rank);
  if (!glow_attr_int(n, "broadcast", 0)) {
    if (!same)
      return glow_node_error(g, n, "input shapes differ and broadcast=0 (opset %lld)", (long long)g->opset);
    return 0;
  }
  if (b->rank > a->rank)
    return glow_node_error(g, n, "legacy broadcast (opset %lld) of a larger input B is invalid", (long long)g->opset);
  int64_t axis = glow_attr_int(n, "axis", a->rank - b->rank);
  if (axis < 0)
    axis += a->rank;
  if (axis != a->rank - b->rank)
    return glow_node_error(g, n, "legacy broadcast with axis=%lld is not supported (only B aligned with A's last "
                                 "axes, as numpy does)", (long long)glow_attr_int(n, "axis", 0));
  return 0;
}

int glow_ew_infer_broadcast(glow_graph *g, glow_node *n, glow_dtype dt) {
  int64_t dims[GLOW_MAX_RANK];
  if (glow_ew_check_legacy_broadcast(g, n))
    return -1;
  int r = glow_broadcast_shape(g, n, dims);
  if (r < 0)
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), dt, r, dims);
  return 0;
}

void glow_ew_iter_init(glow_ew_iter *it, const glow_graph *g, const glow_node *n, int first, int count) {
  const glow_value *o = glow_out(g, n, 0);
  GLOW_ASSERT(count <= GLOW_EW_MAX_IN);
  memset(it, 0, sizeof *it);
  it->rank = o->rank;
  it->nin = count;
  memcpy(it->dims, o->dims, sizeof(int64_t) * (size_t)o->rank);
  for (int k = 0; k < count; k++)
    glow_broadcast_strides(glow_in(g, n, first + k), o->rank, o->dims, it->strides[k]);
}

void glow_ew_iter_next(glow_ew_iter *it) {
  for (int d = it->rank - 1; d >= 0; d--) {
    for (int k = 0; k < it->nin; k++)
      it->off[k] += it->strides[k][d];
    if (++it->idx[d] < it->dims[d])
      return;
    for (int k = 0; k < it->nin; k++)
      it->off[k] -= it->strides[k][d] * it->dims[d];
    it->idx[d] = 0;
  }
}

int glow_ew_lower_bcast(const glow_graph *g, const glow_node *n, glow_kcall *kc, int first, int count) {
  int in[GLOW_EW_MAX_IN];
  if (count > GLOW_EW_MAX_IN)
    return glow_node_error(g, n, "%d inputs: at most %d are supported", count, GLOW_EW_MAX_IN);
  for (int k = 0; k < count; k++)
    in[k] = first + k;
  return glow_ew_lower_bcast_ins(g, n, kc, in, count);
}

int glow_ew_lower_bcast_ins(const glow_graph *g, const glow_node *n, glow_kcall *kc, const int *in, int count) {
  const glow_value *o = glow_out(g, n, 0);
  if (count > GLOW_EW_MAX_IN)
    return glow_node_error(g, n, "%d inputs: at most %d are supported", count, GLOW_EW_MAX_IN);
  int64_t full[GLOW_EW_MAX_IN][GLOW_MAX_RANK], st[GLOW_EW_MAX_IN][GLOW_MAX_RANK], dims[GLOW_MAX_RANK];
  for (int k = 0; k < count; k++)
    glow_broadcast_strides(glow_in(g, n, in[k]), o->rank, o->dims, full[k]);
  int r = 0;
  for (int d = 0; d < o->rank; d++) {
    if (o->dims[d] == 1)
      continue;
    int merge = r > 0;
    for (int k = 0; k < count && merge; k++)
      merge = st[k][r - 1] == full[k][d] * o->dims[d];
    if (merge) {
      dims[r - 1] *= o->dims[d];
      for (int k = 0; k < count; k++)
        st[k][r - 1] = full[k][d];
      continue;
    }
    dims[r] = o->dims[d];
    for (int k = 0; k < count; k++)
      st[k][r] = full[k][d];
    r++;
  }
  if (r == 0) {
    dims[r] = 1;
    for (int k = 0; k < count; k++)
      st[k][r] = 0;
    r++;
  }
  glow_kcall_tensor(kc, n->out[0]);
  for (int k = 0; k < count; k++)
    glow_kcall_tensor(kc, n->in[in[k]]);
  int at = kc->nparams; /* variadic kernels put their count first */
  glow_abi_ew a = {.r = r};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, r, dims);
  for (int k = 0; k < count; k++)
    glow_kcall_params(kc, r, st[k]);
  /* Parts: slices of the outermost (collapsed) dim. */
  int64_t bytes[1 + GLOW_EW_MAX_IN], row = 1;
  for (int d = 1; d < r; d++)
    row *= dims[d];
  bytes[0] = row * (int64_t)glow_dtype_size(o->dt);
  for (int k = 0; k < count; k++)
    bytes[1 + k] = st[k][0] * (int64_t)glow_dtype_size(glow_in(g, n, in[k])->dt);
  glow_kcall_split(kc, at + GLOW_ABI_INDEX(glow_abi_ew, dims), bytes);
  return 0;
}
