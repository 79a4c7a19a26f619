/* Concat and Split along one axis: rows of `outer` blocks, each input or
 * output owning a run of dims[axis] * inner elements in every row. */
#include <stdlib.h>

#include "ops/tensor-util.h"

#define MAX_KERNEL_PARTS 63 /* a kernel call carries 64 tensors: the joined one and 63 parts */

/* ---- Concat ---- */

static int concat_axis(const glow_graph *g, const glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  const glow_attr *a = glow_attr_find(n, "axis");
  if (!a && g->opset >= 4)
    return glow_node_error(g, n, "the axis attribute is missing");
  if (x->rank == 0)
    return glow_node_error(g, n, "cannot concatenate scalars");
  return glow_norm_axis(g, n, a ? a->i : 1, x->rank);
}

static int infer_concat(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int axis = concat_axis(g, n);
  if (axis < 0)
    return -1;
  int64_t dims[GLOW_MAX_RANK];
  for (int d = 0; d < x->rank; d++)
    dims[d] = x->dims[d];
  dims[axis] = 0;
  for (int i = 0; i < n->nin; i++) {
    const glow_value *v = glow_in(g, n, i);
    if (!v)
      return glow_node_error(g, n, "input %d is missing", i);
    if (v->dt != x->dt || v->rank != x->rank)
      return glow_node_error(g, n, "input %d differs in type or rank from input 0", i);
    for (int d = 0; d < x->rank; d++)
      if (d != axis && v->dims[d] != x->dims[d])
        return glow_node_error(g, n, "input %d differs from input 0 in dimension %d", i, d);
    dims[axis] += v->dims[axis];
  }
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, dims);
  return 0;
}

static int eval_concat(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *o = glow_out(g, n, 0);
  int axis = concat_axis(g, n);
  if (axis < 0)
    return -1;
  int64_t c[GLOW_MAX_RANK];
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    glow_t_unravel(i, o->rank, o->dims, c);
    int k = 0;
    while (c[axis] >= glow_in(g, n, k)->dims[axis]) /* find the input holding this position */
      c[axis] -= glow_in(g, n, k++)->dims[axis];
    const glow_value *v = glow_in(g, n, k);
    int64_t si = 0;
    for (int d = 0; d < v->rank; d++)
      si = si * v->dims[d] + c[d];
    glow_t_copy_elem(o->dt, outs[0], i, ins[k], si);
  }
  return 0;
}

static int lower_concat(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *o = glow_out(g, n, 0);
  int axis = concat_axis(g, n);
  if (axis < 0 || glow_t_check_movable(g, n, o))
    return -1;
  int64_t len[MAX_KERNEL_PARTS];
  int k = 0;
  glow_t_kcall_by_size(kc, "concat", o->dt);
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < n->nin; i++) {
    const glow_value *v = glow_in(g, n, i);
    if (!glow_value_numel(v))
      continue; /* adds nothing */
    if (k == MAX_KERNEL_PARTS)
      return glow_node_error(g, n, "more than %d non-empty inputs are not supported", MAX_KERNEL_PARTS);
    len[k++] = glow_extent(v, axis, v->rank);
    glow_kcall_tensor(kc, n->in[i]);
  }
  glow_abi_concat a = {.k = k, .outer = glow_extent(o, 0, axis)};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, k, len);
  return 0;
}

const glow_op_info glow_op_CONCAT = {"Concat", 1, -1, 1, 1, infer_concat, eval_concat, lower_concat};

/* ---- Split ---- */

/* Axis and the size of every output along it. */
static int split_sizes(const glow_graph *g, const glow_node *n, int *axis, int64_t *sizes) {
  const glow_value *x = glow_in(g, n, 0);
  *axis = glow_norm_axis(g, n, glow_attr_int(n, "axis", 0), x->rank);
  if (*axis < 0)
    return -1;
  int64_t dim = x->dims[*axis], total = 0;
  int k = -1;
  if (g->opset >= 13 || (g->opset < 2 && glow_in(g, n, 1))) {
    if (glow_in(g, n, 1) && (k = glow_need_const_ints(g, n, 1, "the split sizes", sizes, n->nout + 1)) < 0)
      return -1;
  } else {
    const int64_t *s;
    k = glow_attr_ints(n, "split", &s);
    for (int i = 0; i < k && i < n->nout; i++)
      sizes[i] = s[i];
  }
  if (k >= 0) {
    if (k != n->nout)
      return glow_node_error(g, n, "split has %d entries for %d outputs", k, n->nout);
    for (int i = 0; i < k; i++) {
      if (sizes[i] < 0)
        return glow_node_error(g, n, "split sizes must not be negative");
      total += sizes[i];
    }
    if (total != dim)
      return glow_node_error(g, n, "split sizes add up to %lld, not to the dimension %lld", (long long)total,
                             (long long)dim);
    return 0;
  }
  int64_t parts = glow_attr_int(n, "num_outputs", n->nout);
  if (parts != n->nout)
    return glow_node_error(g, n, "num_outputs is %lld but the node has %d outputs", (long long)parts, n->nout);
  if (dim % parts && g->opset < 18)
    return glow_node_error(g, n, "dimension %lld does not split into %d equal parts", (long long)dim, n->nout);
  int64_t each = (dim + parts - 1) / parts; /* opset 18: the last part is smaller */
  for (int i = 0; i < n->nout; i++) {
    sizes[i] = dim - total < each ? dim - total : each;
    total += sizes[i];
  }
  return 0;
}

static int infer_split(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int axis;
  int64_t *sizes = glow_xmalloc(sizeof(int64_t) * (size_t)(n->nout + 1)), dims[GLOW_MAX_RANK];
  int rc = split_sizes(g, n, &axis, sizes);
  for (int i = 0; i < n->nout && !rc; i++) {
    for (int d = 0; d < x->rank; d++)
      dims[d] = d == axis ? sizes[i] : x->dims[d];
    if (glow_out(g, n, i))
      glow_value_set_shape(glow_out(g, n, i), x->dt, x->rank, dims);
  }
  free(sizes);
  return rc;
}

static int eval_split(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int axis;
  int64_t *sizes = glow_xmalloc(sizeof(int64_t) * (size_t)(n->nout + 1)), c[GLOW_MAX_RANK];
  int rc = split_sizes(g, n, &axis, sizes);
  for (int64_t i = 0, e = glow_value_numel(x); i < e && !rc; i++) {
    glow_t_unravel(i, x->rank, x->dims, c);
    int k = 0;
    while (c[axis] >= sizes[k]) /* find the output taking this position */
      c[axis] -= sizes[k++];
    if (!outs[k])
      continue;
    const glow_value *o = glow_out(g, n, k);
    int64_t di = 0;
    for (int d = 0; d < o->rank; d++)
      di = di * o->dims[d] + c[d];
    glow_t_copy_elem(x->dt, outs[k], di, ins[0], i);
  }
  free(sizes);
  return rc;
}

static int lower_split(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  if (glow_t_check_movable(g, n, x))
    return -1;
  if (n->nout > MAX_KERNEL_PARTS)
    return glow_node_error(g, n, "more than %d outputs are not supported", MAX_KERNEL_PARTS);
  int axis;
  int64_t sizes[MAX_KERNEL_PARTS + 1], inner;
  if (split_sizes(g, n, &axis, sizes))
    return -1;
  inner = glow_extent(x, axis + 1, x->rank);
  glow_t_kcall_by_size(kc, "split", x->dt);
  for (int i = 0; i < n->nout; i++)
    glow_kcall_tensor(kc, n->out[i]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_concat a = {.k = n->nout, .outer = glow_extent(x, 0, axis)};
  glow_kcall_abi(kc, &a, sizeof a);
  for (int i = 0; i < n->nout; i++)
    glow_kcall_param(kc, sizes[i] * inner);
  return 0;
}

const glow_op_info glow_op_SPLIT = {"Split", 1, 2, 1, -1, infer_split, eval_split, lower_split};
