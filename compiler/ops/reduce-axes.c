/* Reductions over a set of axes: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1,
 * ReduceL2, ReduceLogSum, ReduceLogSumExp, ReduceSumSquare. The axes are an attribute (ReduceSum before
 * opset 13, the others before 18) or an optional constant input (from then on, with noop_with_empty_axes). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops/op-util.h"

typedef enum { R_SUM, R_MEAN, R_MAX, R_MIN, R_PROD, R_L1, R_L2, R_LOG_SUM, R_LOG_SUM_EXP, R_SUM_SQUARE } reduce_kind;

static const char *const kernel_names[] = {"sum", "mean", "max", "min", "prod", "l1", "l2", "log_sum",
                                            "log_sum_exp", "sum_square"};

static reduce_kind kind_of(const glow_node *n) {
  switch (n->op) {
  case GLOW_OP_REDUCE_SUM: return R_SUM;
  case GLOW_OP_REDUCE_MEAN: return R_MEAN;
  case GLOW_OP_REDUCE_MAX: return R_MAX;
  case GLOW_OP_REDUCE_MIN: return R_MIN;
  case GLOW_OP_REDUCE_PROD: return R_PROD;
  case GLOW_OP_REDUCE_L1: return R_L1;
  case GLOW_OP_REDUCE_L2: return R_L2;
  case GLOW_OP_REDUCE_LOG_SUM: return R_LOG_SUM;
  case GLOW_OP_REDUCE_LOG_SUM_EXP: return R_LOG_SUM_EXP;
  case GLOW_OP_REDUCE_SUM_SQUARE: return R_SUM_SQUARE;
  default: unreachable();
  }
  return R_SUM;
}

/* red[d] = 1 for every reduced axis of input 0. */
static int reduce_axes(const glow_graph *g, const glow_node *n, int *red) {
  const glow_value *x = glow_in(g, n, 0);
  int axes_as_input = g->opset >= (n->op == GLOW_OP_REDUCE_SUM ? 13 : 18);
  int64_t axes[GLOW_MAX_RANK];
  const int64_t *attr;
  int na = -1;
  if (axes_as_input) {
    if (glow_attr_find(n, "axes"))
      return glow_node_error(g, n, "attribute 'axes' is not part of %s at opset %lld (axes are input 1)",
                             glow_op_get(n->op)->onnx_name, (long long)g->opset);
    if (glow_in(g, n, 1) && (na = glow_need_const_ints(g, n, 1, "axes", axes, GLOW_MAX_RANK)) < 0)
      return -1;
  } else {
    if (glow_in(g, n, 1))
      return glow_node_error(g, n, "%s takes its axes as an attribute at opset %lld, not as input 1",
                             glow_op_get(n->op)->onnx_name, (long long)g->opset);
    if (glow_attr_find(n, "noop_with_empty_axes"))
      return glow_node_error(g, n, "attribute 'noop_with_empty_axes' is not part of %s at opset %lld",
                             glow_op_get(n->op)->onnx_name, (long long)g->opset);
    if ((na = glow_attr_ints(n, "axes", &attr)) > GLOW_MAX_RANK)
      return glow_node_error(g, n, "attribute 'axes' has %d entries, more than the rank %d", na, x->rank);
    if (na > 0)
      memcpy(axes, attr, (size_t)na * sizeof *axes);
  }
  int noop = glow_attr_int(n, "noop_with_empty_axes", 0) != 0;
  for (int d = 0; d < x->rank; d++)
    red[d] = na <= 0 && !noop;
  for (int i = 0; i < na; i++) {
    int a = glow_norm_axis(g, n, axes[i], x->rank);
    if (a < 0)
      return -1;
    if (red[a])
      return glow_node_error(g, n, "axis %lld is listed twice in 'axes'", (long long)axes[i]);
    red[a] = 1;
  }
  return 0;
}

static int infer_reduce(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int red[GLOW_MAX_RANK];
  if (x->dt == GLOW_DT_BOOL || x->dt == GLOW_DT_STRING)
    return glow_node_error(g, n, "input type %s is not supported", glow_dtype_name(x->dt));
  if (reduce_axes(g, n, red))
    return -1;
  int keep = glow_attr_int(n, "keepdims", 1) != 0, r = 0;
  int64_t dims[GLOW_MAX_RANK];
  for (int d = 0; d < x->rank; d++)
    if (!red[d])
      dims[r++] = x->dims[d];
    else if (keep)
      dims[r++] = 1;
  glow_value_set_shape(glow_out(g, n, 0), x->dt, r, dims);
  return 0;
}

/* Output element that input element i (row-major) contributes to. */
static int64_t out_index(const glow_value *x, const int *red, int64_t i) {
  int64_t o = 0, mul = 1;
  for (int d = x->rank - 1; d >= 0; d--) {
    int64_t c = i % x->dims[d];
    i /= x->dims[d];
    if (!red[d]) {
      o += c * mul;
      mul *= x->dims[d];
    }
  }
  return o;
}

/* Integer inputs: exact 64-bit arithmetic, wrapping as the narrower ONNX types do; results that are
 * not integers (ReduceL2, ReduceLogSum, ReduceLogSumExp) are truncated toward zero, as numpy's astype. */
static void eval_int(reduce_kind k, const glow_value *x, const glow_value *y, const int *red, void *out,
                     const void *in) {
  int64_t ny = glow_value_numel(y), nx = glow_value_numel(x), count = ny ? nx / ny : 0;
  int uns = glow_dtype_is_unsigned_int(x->dt);
  uint64_t *acc = glow_xcalloc((size_t)(ny ? ny : 1), sizeof *acc);
  int *seen = glow_xcalloc((size_t)(ny ? ny : 1), sizeof *seen);
  for (int64_t j = 0; j < ny; j++)
    acc[j] = k == R_PROD ? 1 : 0;
  for (int64_t i = 0; i < nx; i++) {
    int64_t j = out_index(x, red, i);
    uint64_t u = (uint64_t)glow_elem_geti(x->dt, in, i);
    int less = uns ? u < acc[j] : (int64_t)u < (int64_t)acc[j];
    int more = uns ? u > acc[j] : (int64_t)u > (int64_t)acc[j];
    switch (k) {
    case R_MAX: acc[j] = !seen[j] || more ? u : acc[j]; break;
    case R_MIN: acc[j] = !seen[j] || less ? u : acc[j]; break;
    case R_PROD: acc[j] *= u; break;
    case R_L1: acc[j] += !uns && (int64_t)u < 0 ? 0 - u : u; break;
    case R_L2:
    case R_SUM_SQUARE: acc[j] += u * u; break;
    default: acc[j] += u; break;
    }
    seen[j] = 1;
  }
  for (int64_t j = 0; j < ny; j++) {
    double s = uns ? (double)acc[j] : (double)(int64_t)acc[j];
    int64_t v = (int64_t)acc[j];
    if (k == R_MEAN)
      v = count == 0 ? 0 : uns ? (int64_t)(acc[j] / (uint64_t)count) : (int64_t)acc[j] / count;
    else if (k == R_L2)
      v = (int64_t)sqrt(s);
    else if (k == R_LOG_SUM)
      v = s > 0 ? (int64_t)log(s) : 0;
    glow_elem_seti(y->dt, out, j, v);
  }
  free(acc);
  free(seen);
}

static int eval_reduce(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *y = glow_out(g, n, 0);
  reduce_kind k = kind_of(n);
  int red[GLOW_MAX_RANK];
  if (reduce_axes(g, n, red))
    return -1;
  if (!glow_dtype_is_float(x->dt) && k != R_LOG_SUM_EXP) {
    eval_int(k, x, y, red, outs[0], ins[0]);
    return 0;
  }
  int64_t ny = glow_value_numel(y), nx = glow_value_numel(x), count = ny ? nx / ny : 0;
  double *acc = glow_xcalloc((size_t)(ny ? ny : 1), sizeof *acc);
  double *mx = glow_xcalloc((size_t)(ny ? ny : 1), sizeof *mx);
  double init = k == R_PROD ? 1 : k == R_MAX ? -INFINITY : k == R_MIN ? INFINITY : 0;
  for (int64_t j = 0; j < ny; j++) {
    acc[j] = init;
    mx[j] = -INFINITY;
  }
  if (k == R_LOG_SUM_EXP)
    for (int64_t i = 0; i < nx; i++) {
      int64_t j = out_index(x, red, i);
      mx[j] = fmax(mx[j], glow_elem_get(x->dt, ins[0], i));
    }
  for (int64_t i = 0; i < nx; i++) {
    int64_t j = out_index(x, red, i);
    double v = glow_elem_get(x->dt, ins[0], i);
    switch (k) {
    case R_MAX: acc[j] = isnan(v) || v > acc[j] ? v : acc[j]; break;
    case R_MIN: acc[j] = isnan(v) || v < acc[j] ? v : acc[j]; break;
    case R_PROD: acc[j] *= v; break;
    case R_L1: acc[j] += fabs(v); break;
    case R_L2:
    case R_SUM_SQUARE: acc[j] += v * v; break;
    case R_LOG_SUM_EXP: acc[j] += exp(v - mx[j]); break;
    default: acc[j] += v; break;
    }
  }
  for (int64_t j = 0; j < ny; j++) {
    double v = acc[j];
    if (k == R_MEAN)
      v /= (double)count;
    else if (k == R_L2)
      v = sqrt(v);
    else if (k == R_LOG_SUM)
      v = log(v);
    else if (k == R_LOG_SUM_EXP)
      v = isinf(mx[j]) ? mx[j] : mx[j] + log(v);
    if (glow_dtype_is_float(y->dt))
      glow_elem_set(y->dt, outs[0], j, v);
    else
      glow_elem_seti(y->dt, outs[0], j, isfinite(v) ? (int64_t)v : 0);
  }
  free(acc);
  free(mx);
  return 0;
}

/* Kernel layout: the input's axes collapsed into runs of kept and of reduced axes (size-1 axes dropped);
 * a trailing kept run becomes `inner`, the contiguous extent the kernel accumulates row by row. */
static void reduce_layout(const glow_value *x, const int *red, glow_kcall *kc) {
  int64_t ext[GLOW_MAX_RANK] = {0}, str[GLOW_MAX_RANK], kd[GLOW_MAX_RANK], ks[GLOW_MAX_RANK], rd[GLOW_MAX_RANK],
      rs[GLOW_MAX_RANK];
  int isred[GLOW_MAX_RANK], ng = 0, nk = 0, nr = 0;
  for (int d = 0; d < x->rank; d++) {
    if (x->dims[d] == 1)
      continue;
    if (ng > 0 && isred[ng - 1] == red[d]) {
      ext[ng - 1] *= x->dims[d];
      continue;
    }
    ext[ng] = x->dims[d];
    isred[ng++] = red[d];
  }
  glow_dense_strides(ng, ext, str);
  int64_t inner = 1;
  if (ng > 0 && !isred[ng - 1])
    inner = ext[--ng];
  for (int i = 0; i < ng; i++) {
    if (isred[i]) {
      rd[nr] = ext[i];
      rs[nr++] = str[i];
    } else {
      kd[nk] = ext[i];
      ks[nk++] = str[i];
    }
  }
  if (nr == 0) {
    rd[0] = 1;
    rs[0] = 0;
    nr = 1;
  }
  glow_abi_reduce a = {.nk = nk};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, nk, kd);
  glow_kcall_params(kc, nk, ks);
  glow_kcall_param(kc, nr);
  glow_kcall_params(kc, nr, rd);
  glow_kcall_params(kc, nr, rs);
  glow_kcall_param(kc, inner);
}

static int lower_reduce(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  reduce_kind k = kind_of(n);
  int red[GLOW_MAX_RANK];
  if (reduce_axes(g, n, red))
    return -1;
  int ok;
  switch (x->dt) {
  case GLOW_DT_F32:
  case GLOW_DT_F64: ok = 1; break;
  case GLOW_DT_I32:
  case GLOW_DT_I64:
  case GLOW_DT_U32:
  case GLOW_DT_U64: ok = k != R_L2 && k != R_LOG_SUM && k != R_LOG_SUM_EXP; break;
  case GLOW_DT_I8:
  case GLOW_DT_U8: ok = k == R_MAX || k == R_MIN; break;
  default: ok = 0; break;
  }
  if (!ok)
    return glow_node_error(g, n, "no %s kernel for type %s", glow_op_get(n->op)->onnx_name,
                           glow_dtype_name(x->dt));
  glow_kcall_init(kc, "glow_k_reduce_%s_%s", kernel_names[k], glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  reduce_layout(x, red, kc);
  return 0;
}

#define REDUCE_OP(ID, NAME) \
  const glow_op_info glow_op_##ID = {NAME, 1, 2, 1, 1, infer_reduce, eval_reduce, lower_reduce};
REDUCE_OP(REDUCE_SUM, "ReduceSum")
REDUCE_OP(REDUCE_MEAN, "ReduceMean")
REDUCE_OP(REDUCE_MAX, "ReduceMax")
REDUCE_OP(REDUCE_MIN, "ReduceMin")
REDUCE_OP(REDUCE_PROD, "ReduceProd")
REDUCE_OP(REDUCE_L1, "ReduceL1")
REDUCE_OP(REDUCE_L2, "ReduceL2")
REDUCE_OP(REDUCE_LOG_SUM, "ReduceLogSum")
REDUCE_OP(REDUCE_LOG_SUM_EXP, "ReduceLogSumExp")
REDUCE_OP(REDUCE_SUM_SQUARE, "ReduceSumSquare")
