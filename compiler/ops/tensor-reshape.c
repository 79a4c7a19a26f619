/* Identity, Reshape, Flatten, Squeeze, Unsqueeze: same bytes, new shape. */
#include "ops/op-util.h"

static int infer_identity(glow_graph *g, glow_node *n) { return glow_infer_same_as_input(g, n); }

const glow_op_info glow_op_IDENTITY = {"Identity", 1, 1, 1, 1, infer_identity, glow_eval_copy, glow_lower_copy};

static int infer_reshape(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t shape[GLOW_MAX_RANK + 1];
  int r = glow_need_const_ints(g, n, 1, "the target shape", shape, GLOW_MAX_RANK + 1);
  if (r < 0)
    return -1;
  int allowzero = (int)glow_attr_int(n, "allowzero", 0), infer = -1;
  int64_t known = 1, total = glow_value_numel(x);
  for (int d = 0; d < r; d++) {
    if (shape[d] == 0 && !allowzero) {
      if (d >= x->rank)
        return glow_node_error(g, n, "shape entry %d is 0 (copy) but the input has rank %d", d, x->rank);
      shape[d] = x->dims[d];
    }
    if (shape[d] == -1) {
      if (infer >= 0)
        return glow_node_error(g, n, "more than one -1 in the target shape");
      infer = d;
    } else if (shape[d] < 0) {
      return glow_node_error(g, n, "invalid target shape entry %lld", (long long)shape[d]);
    } else if (shape[d] && known > INT64_MAX / shape[d]) {
      return glow_node_error(g, n, "the target shape's product overflows 64 bits at entry %d (%lld)", d,
                             (long long)shape[d]);
    } else {
      known *= shape[d];
    }
  }
  if (infer >= 0)
    shape[infer] = known ? total / known : 0;
  int64_t got = 1;
  for (int d = 0; d < r; d++)
    got *= shape[d];
  if (got != total) {
    char s[128];
    return glow_node_error(g, n, "cannot reshape %s (%lld elements) into a shape of %lld elements",
                           glow_shape_str(x, s, sizeof s), (long long)total, (long long)got);
  }
  glow_value_set_shape(glow_out(g, n, 0), x->dt, r, shape);
  return 0;
}

const glow_op_info glow_op_RESHAPE = {"Reshape", 2, 2, 1, 1, infer_reshape, glow_eval_copy, glow_lower_copy};

static int infer_flatten(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t axis = glow_attr_int(n, "axis", 1);
  if (axis < 0)
    axis += x->rank;
  if (axis < 0 || axis > x->rank)
    return glow_node_error(g, n, "axis %lld is out of range for rank %d", (long long)glow_attr_int(n, "axis", 1),
                           x->rank);
  int64_t d[2] = {1, 1};
  for (int i = 0; i < x->rank; i++)
    d[i < axis ? 0 : 1] *= x->dims[i];
  glow_value_set_shape(glow_out(g, n, 0), x->dt, 2, d);
  return 0;
}

const glow_op_info glow_op_FLATTEN = {"Flatten", 1, 1, 1, 1, infer_flatten, glow_eval_copy, glow_lower_copy};

/* Axes from the `axes` attribute (opset < 13) or input 1 (opset >= 13); -2 if absent, -1 after an error. */
static int axes_arg(glow_graph *g, glow_node *n, int64_t *axes) {
  if (g->opset < 13) {
    const int64_t *a;
    int k = glow_attr_ints(n, "axes", &a);
    if (k > GLOW_MAX_RANK)
      return glow_node_error(g, n, "too many axes (%d)", k);
    for (int i = 0; i < k; i++)
      axes[i] = a[i];
    return k < 0 ? -2 : k;
  }
  if (!glow_in(g, n, 1))
    return -2;
  return glow_need_const_ints(g, n, 1, "the axes", axes, GLOW_MAX_RANK);
}

static int infer_squeeze(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t axes[GLOW_MAX_RANK], dims[GLOW_MAX_RANK];
  int drop[GLOW_MAX_RANK] = {0}, k = axes_arg(g, n, axes), r = 0;
  if (k == -1)
    return -1;
  for (int i = 0; i < k; i++) {
    int a = glow_norm_axis(g, n, axes[i], x->rank);
    if (a < 0)
      return -1;
    if (x->dims[a] != 1)
      return glow_node_error(g, n, "cannot squeeze axis %d of size %lld", a, (long long)x->dims[a]);
    drop[a] = 1;
  }
  for (int d = 0; d < x->rank; d++)
    if (k == -2 ? x->dims[d] != 1 : !drop[d])
      dims[r++] = x->dims[d];
  glow_value_set_shape(glow_out(g, n, 0), x->dt, r, dims);
  return 0;
}

const glow_op_info glow_op_SQUEEZE = {"Squeeze", 1, 2, 1, 1, infer_squeeze, glow_eval_copy, glow_lower_copy};

static int infer_unsqueeze(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t axes[GLOW_MAX_RANK], dims[GLOW_MAX_RANK];
  int add[GLOW_MAX_RANK] = {0}, k = axes_arg(g, n, axes);
  if (k == -1)
    return -1;
  if (k == -2)
    return glow_node_error(g, n, "axes are missing");
  int r = x->rank + k;
  if (r > GLOW_MAX_RANK)
    return glow_node_error(g, n, "the output would have rank %d; at most %d is supported", r, GLOW_MAX_RANK);
  for (int i = 0; i < k; i++) {
    int a = glow_norm_axis(g, n, axes[i], r);
    if (a < 0)
      return -1;
    if (add[a])
      return glow_node_error(g, n, "axis %lld is repeated", (long long)axes[i]);
    add[a] = 1;
  }
  for (int d = 0, s = 0; d < r; d++)
    dims[d] = add[d] ? 1 : x->dims[s++];
  glow_value_set_shape(glow_out(g, n, 0), x->dt, r, dims);
  return 0;
}

const glow_op_info glow_op_UNSQUEEZE = {"Unsqueeze", 1, 2, 1, 1, infer_unsqueeze, glow_eval_copy, glow_lower_copy};
