/* CumSum and TopK: computations along one axis of a tensor viewed as
 * [outer, len, inner]. Both need the axis (and TopK its k) at compile time. */
#include <math.h>

#include "ops/tensor-util.h"

static void axis_extents(const glow_value *x, int axis, int64_t *outer, int64_t *len, int64_t *inner) {
  *outer = *inner = 1;
  *len = x->rank ? x->dims[axis] : 1;
  for (int d = 0; d < x->rank; d++) {
    if (d < axis)
      *outer *= x->dims[d];
    else if (d > axis)
      *inner *= x->dims[d];
  }
}

static int typed_kernel_ok(glow_dtype dt, int with_small_ints) {
  switch (dt) {
  case GLOW_DT_F32:
  case GLOW_DT_F64:
  case GLOW_DT_I32:
  case GLOW_DT_I64:
  case GLOW_DT_U32:
  case GLOW_DT_U64:
    return 1;
  case GLOW_DT_I8:
  case GLOW_DT_I16:
  case GLOW_DT_U8:
  case GLOW_DT_U16:
    return with_small_ints;
  default:
    return 0;
  }
}

/* ---- CumSum ---- */

static int cumsum_axis(const glow_graph *g, const glow_node *n) {
  int64_t a;
  const glow_value *x = glow_in(g, n, 0);
  int k = glow_need_const_ints(g, n, 1, "the axis", &a, 1);
  if (k < 0)
    return -1;
  if (k != 1)
    return glow_node_error(g, n, "axis must hold one value");
  if (x->rank == 0)
    return glow_node_error(g, n, "the input must have rank >= 1");
  return glow_norm_axis(g, n, a, x->rank);
}

static int infer_cumsum(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  if (cumsum_axis(g, n) < 0)
    return -1;
  if (!typed_kernel_ok(x->dt, 0))
    return glow_node_error(g, n, "type %s is not supported", glow_dtype_name(x->dt));
  return glow_infer_same_as_input(g, n);
}

static int eval_cumsum(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int axis = cumsum_axis(g, n);
  int excl = glow_attr_int(n, "exclusive", 0) != 0, rev = glow_attr_int(n, "reverse", 0) != 0;
  int64_t outer, len, inner;
  if (axis < 0)
    return -1;
  axis_extents(x, axis, &outer, &len, &inner);
  for (int64_t a = 0; a < outer; a++)
    for (int64_t c = 0; c < inner; c++) {
      double fsum = 0;
      uint64_t isum = 0; /* wraps like fixed-width integer arithmetic */
      for (int64_t s = 0; s < len; s++) {
        int64_t k = rev ? len - 1 - s : s, i = (a * len + k) * inner + c;
        if (excl) {
          if (glow_dtype_is_float(x->dt))
            glow_elem_set(x->dt, outs[0], i, fsum);
          else
            glow_elem_seti(x->dt, outs[0], i, (int64_t)isum);
        }
        fsum += glow_elem_get(x->dt, ins[0], i);
        isum += (uint64_t)glow_elem_geti(x->dt, ins[0], i);
        if (!excl) {
          if (glow_dtype_is_float(x->dt))
            glow_elem_set(x->dt, outs[0], i, fsum);
          else
            glow_elem_seti(x->dt, outs[0], i, (int64_t)isum);
        }
      }
    }
  return 0;
}

static int lower_cumsum(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  int axis = cumsum_axis(g, n);
  glow_abi_cumsum a;
  if (axis < 0)
    return -1;
  axis_extents(x, axis, &a.outer, &a.len, &a.inner);
  a.exclusive = glow_attr_int(n, "exclusive", 0) != 0;
  a.reverse = glow_attr_int(n, "reverse", 0) != 0;
  glow_kcall_init(kc, "glow_k_cumsum_%s", glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_CUM_SUM = {"CumSum", 2, 2, 1, 1, infer_cumsum, eval_cumsum, lower_cumsum};

/* ---- TopK ---- */

static int topk_get(const glow_graph *g, const glow_node *n, int *axis, int64_t *k) {
  const glow_value *x = glow_in(g, n, 0);
  if (x->rank == 0)
    return glow_node_error(g, n, "the input must have rank >= 1");
  *axis = glow_norm_axis(g, n, glow_attr_int(n, "axis", -1), x->rank);
  if (*axis < 0)
    return -1;
  if (g->opset < 10) {
    const glow_attr *a = glow_attr_find(n, "k");
    if (!a)
      return glow_node_error(g, n, "the k attribute is missing");
    *k = a->i;
  } else {
    int c = glow_need_const_ints(g, n, 1, "k", k, 1);
    if (c < 0)
      return -1;
    if (c != 1)
      return glow_node_error(g, n, "k must hold one value");
  }
  if (*k < 0 || *k > x->dims[*axis])
    return glow_node_error(g, n, "k = %lld is out of range for an axis of %lld", (long long)*k,
                           (long long)x->dims[*axis]);
  return 0;
}

static int infer_topk(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int axis;
  int64_t k, dims[GLOW_MAX_RANK];
  if (topk_get(g, n, &axis, &k))
    return -1;
  if (!typed_kernel_ok(x->dt, 1))
    return glow_node_error(g, n, "type %s is not supported", glow_dtype_name(x->dt));
  for (int d = 0; d < x->rank; d++)
    dims[d] = d == axis ? k : x->dims[d];
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, dims);
  glow_value_set_shape(glow_out(g, n, 1), GLOW_DT_I64, x->rank, dims);
  return 0;
}

/* Whether (a at ia) comes before (b at ib): larger (or smaller) first, NaN first for largest and last for smallest,
 * ties by lower index. */
static int topk_before(double a, int64_t ia, double b, int64_t ib, int largest) {
  if (isnan(a) || isnan(b)) {
    if (isnan(a) && isnan(b))
      return ia < ib;
    return largest ? isnan(a) : isnan(b);
  }
  if (a != b)
    return largest ? a > b : a < b;
  return ia < ib;
}

static int eval_topk(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int axis, largest = glow_attr_int(n, "largest", 1) != 0;
  int64_t k, outer, len, inner;
  if (topk_get(g, n, &axis, &k))
    return -1;
  axis_extents(x, axis, &outer, &len, &inner);
  for (int64_t a = 0; a < outer; a++)
    for (int64_t c = 0; c < inner; c++) {
      int64_t prev = -1; /* rank j's pick is the first element (in order) after rank j-1's pick */
      for (int64_t j = 0; j < k; j++) {
        int64_t best = -1;
        for (int64_t s = 0; s < len; s++) {
          double v = glow_elem_get(x->dt, ins[0], (a * len + s) * inner + c);
          if (prev >= 0 &&
              !topk_before(glow_elem_get(x->dt, ins[0], (a * len + prev) * inner + c), prev, v, s, largest))
            continue;
          if (best < 0 || topk_before(v, s, glow_elem_get(x->dt, ins[0], (a * len + best) * inner + c), best, largest))
            best = s;
        }
        int64_t o = (a * k + j) * inner + c;
        glow_t_copy_elem(x->dt, outs[0], o, ins[0], (a * len + best) * inner + c);
        ((int64_t *)outs[1])[o] = best;
        prev = best;
      }
    }
  return 0;
}

static int lower_topk(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  int axis;
  glow_abi_topk a;
  if (topk_get(g, n, &axis, &a.k))
    return -1;
  axis_extents(x, axis, &a.outer, &a.len, &a.inner);
  a.largest = glow_attr_int(n, "largest", 1) != 0;
  glow_kcall_init(kc, "glow_k_topk_%s", glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->out[1]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_TOP_K = {"TopK", 1, 2, 2, 2, infer_topk, eval_topk, lower_topk};
