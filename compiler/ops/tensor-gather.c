/* Gather, GatherElements, GatherND, OneHot: outputs read through runtime
 * indices. Negative indices count from the end; an index still out of range
 * gives a zero element (OneHot: the off value) instead of reading outside. */
#include <string.h>

#include "ops/tensor-util.h"

/* Index i of a runtime index tensor normalized against an axis of n elements; -1 if out of range. */
static int64_t index_at(const glow_value *iv, const void *p, int64_t i, int64_t n) {
  int64_t k;
  if (glow_dtype_is_float(iv->dt)) {
    double f = glow_elem_get(iv->dt, p, i);
    if (!(f > -9.2e18 && f < 9.2e18))
      return -1;
    k = (int64_t)f;
  } else {
    k = glow_elem_geti(iv->dt, p, i);
    if (iv->dt == GLOW_DT_U64 && k < 0)
      return -1;
  }
  if (k < 0)
    k += n;
  return k >= 0 && k < n ? k : -1;
}

static int check_indices(const glow_graph *g, const glow_node *n, const glow_value *iv) {
  if (iv->dt != GLOW_DT_I32 && iv->dt != GLOW_DT_I64)
    return glow_node_error(g, n, "indices of type %s are not supported (int32 or int64)", glow_dtype_name(iv->dt));
  return 0;
}

static void zero_elem(glow_dtype dt, void *p, int64_t i) {
  size_t s = glow_dtype_size(dt);
  memset((char *)p + (size_t)i * s, 0, s);
}

/* ---- Gather ---- */

static int gather_axis(const glow_graph *g, const glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  if (x->rank == 0)
    return glow_node_error(g, n, "data must have rank >= 1");
  return glow_norm_axis(g, n, glow_attr_int(n, "axis", 0), x->rank);
}

static int infer_gather(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  int axis = gather_axis(g, n), r = 0;
  if (axis < 0 || glow_t_check_movable(g, n, x) || check_indices(g, n, iv))
    return -1;
  if (x->rank - 1 + iv->rank > GLOW_MAX_RANK)
    return glow_node_error(g, n, "the output would have rank %d; at most %d is supported", x->rank - 1 + iv->rank,
                           GLOW_MAX_RANK);
  int64_t dims[GLOW_MAX_RANK];
  for (int d = 0; d < axis; d++)
    dims[r++] = x->dims[d];
  for (int d = 0; d < iv->rank; d++)
    dims[r++] = iv->dims[d];
  for (int d = axis + 1; d < x->rank; d++)
    dims[r++] = x->dims[d];
  glow_value_set_shape(glow_out(g, n, 0), x->dt, r, dims);
  return 0;
}

static int eval_gather(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1), *o = glow_out(g, n, 0);
  int axis = gather_axis(g, n);
  int64_t c[GLOW_MAX_RANK], xc[GLOW_MAX_RANK];
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    glow_t_unravel(i, o->rank, o->dims, c);
    int64_t j = 0; /* flat position in indices */
    for (int d = 0; d < iv->rank; d++)
      j = j * iv->dims[d] + c[axis + d];
    for (int d = 0; d < x->rank; d++)
      xc[d] = d < axis ? c[d] : d > axis ? c[d + iv->rank - 1] : index_at(iv, ins[1], j, x->dims[axis]);
    if (xc[axis] < 0) {
      zero_elem(o->dt, outs[0], i);
      continue;
    }
    int64_t si = 0;
    for (int d = 0; d < x->rank; d++)
      si = si * x->dims[d] + xc[d];
    glow_t_copy_elem(o->dt, outs[0], i, ins[0], si);
  }
  return 0;
}

static int lower_gather(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  int axis = gather_axis(g, n);
  if (axis < 0 || glow_t_check_movable(g, n, x))
    return -1;
  glow_t_kcall_by_size(kc, "gather", x->dt);
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, n->in[1]);
  glow_abi_gather a = {.outer = glow_extent(x, 0, axis), .len = x->dims[axis],
                       .inner = glow_extent(x, axis + 1, x->rank), .nidx = glow_value_numel(iv), .idt = iv->dt};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_GATHER = {"Gather", 2, 2, 1, 1, infer_gather, eval_gather, lower_gather};

/* ---- GatherElements ---- */

static int infer_gather_elements(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  int axis = gather_axis(g, n);
  if (axis < 0 || glow_t_check_movable(g, n, x) || check_indices(g, n, iv))
    return -1;
  if (iv->rank != x->rank)
    return glow_node_error(g, n, "indices must have the rank of data (%d), not %d", x->rank, iv->rank);
  for (int d = 0; d < x->rank; d++)
    if (d != axis && iv->dims[d] > x->dims[d])
      return glow_node_error(g, n, "indices dimension %d (%lld) exceeds data's (%lld)", d, (long long)iv->dims[d],
                             (long long)x->dims[d]);
  glow_value_set_shape(glow_out(g, n, 0), x->dt, iv->rank, iv->dims);
  return 0;
}

static int eval_gather_elements(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1), *o = glow_out(g, n, 0);
  int axis = gather_axis(g, n);
  int64_t c[GLOW_MAX_RANK];
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    glow_t_unravel(i, o->rank, o->dims, c);
    c[axis] = index_at(iv, ins[1], i, x->dims[axis]);
    if (c[axis] < 0) {
      zero_elem(o->dt, outs[0], i);
      continue;
    }
    int64_t si = 0;
    for (int d = 0; d < x->rank; d++)
      si = si * x->dims[d] + c[d];
    glow_t_copy_elem(o->dt, outs[0], i, ins[0], si);
  }
  return 0;
}

static int lower_gather_elements(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  int axis = gather_axis(g, n);
  if (axis < 0 || glow_t_check_movable(g, n, x))
    return -1;
  glow_t_kcall_by_size(kc, "gather_elements", x->dt);
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, n->in[1]);
  glow_abi_gather_elements a = {.r = x->rank, .axis = axis, .idt = iv->dt};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, x->rank, iv->dims);
  glow_kcall_params(kc, x->rank, x->dims);
  return 0;
}

const glow_op_info glow_op_GATHER_ELEMENTS = {
    "GatherElements", 2, 2, 1, 1, infer_gather_elements, eval_gather_elements, lower_gather_elements};

/* ---- GatherND ---- */

typedef struct {
  int b, k;        /* batch dims; length of an index tuple */
  int64_t B, N, S; /* batches, tuples per batch, elements per gathered slice */
} gnd_plan;

static int gnd_get(const glow_graph *g, const glow_node *n, gnd_plan *p) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  int64_t b = glow_attr_int(n, "batch_dims", 0);
  if (iv->rank < 1 || x->rank < 1)
    return glow_node_error(g, n, "data and indices must have rank >= 1");
  if (b < 0 || b >= iv->rank || b >= x->rank)
    return glow_node_error(g, n, "batch_dims %lld is out of range", (long long)b);
  p->b = (int)b;
  int64_t k = iv->dims[iv->rank - 1];
  if (k < 1 || k > x->rank - b)
    return glow_node_error(g, n, "index tuples of length %lld do not fit data of rank %d with %d batch dims",
                           (long long)k, x->rank, p->b);
  p->k = (int)k;
  for (int d = 0; d < p->b; d++)
    if (iv->dims[d] != x->dims[d])
      return glow_node_error(g, n, "batch dimension %d differs between data and indices", d);
  p->B = glow_extent(x, 0, p->b);
  p->N = glow_extent(iv, p->b, iv->rank - 1);
  p->S = glow_extent(x, p->b + p->k, x->rank);
  return 0;
}

static int infer_gather_nd(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  gnd_plan p;
  if (glow_t_check_movable(g, n, x) || check_indices(g, n, iv) || gnd_get(g, n, &p))
    return -1;
  int64_t dims[GLOW_MAX_RANK];
  int r = 0;
  if (iv->rank - 1 + x->rank - p.b - p.k > GLOW_MAX_RANK)
    return glow_node_error(g, n, "the output rank is too large");
  for (int d = 0; d < iv->rank - 1; d++)
    dims[r++] = iv->dims[d];
  for (int d = p.b + p.k; d < x->rank; d++)
    dims[r++] = x->dims[d];
  glow_value_set_shape(glow_out(g, n, 0), x->dt, r, dims);
  return 0;
}

static int eval_gather_nd(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  gnd_plan p;
  if (gnd_get(g, n, &p))
    return -1;
  for (int64_t bt = 0; bt < p.B; bt++)
    for (int64_t j = 0; j < p.N; j++) {
      int64_t t = bt * p.N + j, si = bt, ok = 1; /* si: flat index over data's first b + k axes */
      for (int m = 0; m < p.k; m++) {
        int64_t ix = index_at(iv, ins[1], t * p.k + m, x->dims[p.b + m]);
        ok &= ix >= 0;
        si = si * x->dims[p.b + m] + (ix < 0 ? 0 : ix);
      }
      for (int64_t s = 0; s < p.S; s++) {
        if (ok)
          glow_t_copy_elem(x->dt, outs[0], t * p.S + s, ins[0], si * p.S + s);
        else
          zero_elem(x->dt, outs[0], t * p.S + s);
      }
    }
  return 0;
}

static int lower_gather_nd(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  gnd_plan p;
  int64_t xs[GLOW_MAX_RANK];
  if (gnd_get(g, n, &p) || glow_t_check_movable(g, n, x))
    return -1;
  glow_dense_strides(x->rank, x->dims, xs);
  glow_t_kcall_by_size(kc, "gather_nd", x->dt);
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, n->in[1]);
  glow_abi_gather_nd a = {.B = p.B, .N = p.N, .K = p.k, .S = p.S, .batch_stride = glow_extent(x, p.b, x->rank),
                          .idt = iv->dt};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, p.k, x->dims + p.b);
  glow_kcall_params(kc, p.k, xs + p.b);
  return 0;
}

const glow_op_info glow_op_GATHER_ND = {"GatherND", 2, 2, 1, 1, infer_gather_nd, eval_gather_nd, lower_gather_nd};

/* ---- OneHot (depth must be a constant: it is a dimension of the output) ---- */

static int onehot_get(const glow_graph *g, const glow_node *n, int64_t *depth, int *axis) {
  const glow_value *iv = glow_in(g, n, 0), *vals = glow_in(g, n, 2);
  double d;
  int k = glow_t_need_const_nums(g, n, 1, "the depth", &d, 1);
  if (k < 0)
    return -1;
  if (k != 1)
    return glow_node_error(g, n, "depth must hold one value");
  if (!(d >= 1 && d < 9e18))
    return glow_node_error(g, n, "depth %g is not a positive size", d);
  *depth = (int64_t)d;
  if (iv->dt == GLOW_DT_F16 || iv->dt == GLOW_DT_BF16 || iv->dt == GLOW_DT_STRING || iv->dt == GLOW_DT_BOOL)
    return glow_node_error(g, n, "indices of type %s are not supported", glow_dtype_name(iv->dt));
  if (glow_value_numel(vals) != 2)
    return glow_node_error(g, n, "values must hold two elements (off, on)");
  int64_t a = glow_attr_int(n, "axis", -1);
  *axis = (int)(a < 0 ? a + iv->rank + 1 : a);
  if (*axis < 0 || *axis > iv->rank)
    return glow_node_error(g, n, "axis %lld is out of range", (long long)a);
  return 0;
}

static int infer_onehot(glow_graph *g, glow_node *n) {
  const glow_value *iv = glow_in(g, n, 0), *vals = glow_in(g, n, 2);
  int64_t depth, dims[GLOW_MAX_RANK];
  int axis;
  if (glow_t_check_movable(g, n, vals) || onehot_get(g, n, &depth, &axis))
    return -1;
  if (iv->rank + 1 > GLOW_MAX_RANK)
    return glow_node_error(g, n, "the output rank is too large");
  for (int d = 0, s = 0; d <= iv->rank; d++)
    dims[d] = d == axis ? depth : iv->dims[s++];
  glow_value_set_shape(glow_out(g, n, 0), vals->dt, iv->rank + 1, dims);
  return 0;
}

static int eval_onehot(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *iv = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t depth, c[GLOW_MAX_RANK];
  int axis;
  if (onehot_get(g, n, &depth, &axis))
    return -1;
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    glow_t_unravel(i, o->rank, o->dims, c);
    int64_t j = 0; /* the index element: every output coordinate but the axis */
    for (int d = 0; d < o->rank; d++)
      if (d != axis)
        j = j * o->dims[d] + c[d];
    glow_t_copy_elem(o->dt, outs[0], i, ins[2], index_at(iv, ins[0], j, depth) == c[axis] ? 1 : 0);
  }
  return 0;
}

static int lower_onehot(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *iv = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t depth;
  int axis;
  if (onehot_get(g, n, &depth, &axis))
    return -1;
  glow_t_kcall_by_size(kc, "onehot", o->dt);
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, n->in[2]);
  glow_abi_onehot a = {.outer = glow_extent(iv, 0, axis), .depth = depth, .inner = glow_extent(iv, axis, iv->rank),
                       .idt = iv->dt};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_ONE_HOT = {"OneHot", 3, 3, 1, 1, infer_onehot, eval_onehot, lower_onehot};
