/* Caffe2's tensor ops as ONNX nodes: Concat (its split_info output a
 * constant), Reshape (its old_shape output a constant), ChannelShuffle
 * (Reshape, Transpose, Reshape), and the ops that only take axes: Flatten,
 * Transpose, Squeeze and ExpandDims. Shapes are known here, so the
 * by-products Caffe2 computes at run time are constants. */
#include <stdlib.h>
#include <string.h>

#include "importer/caffe2.h"

/* Concat (DepthConcat): `axis`, else the axis `order` gives (NCHW 1, NHWC 3),
 * default 1; add_axis=1 stacks the inputs on a new axis there. */
int glow_c2_emit_concat(glow_c2 *c, const glow_c2_op *op) {
  int n = (int)op->def->n_input;
  int *in = glow_xmalloc(sizeof(int) * (size_t)n);
  int64_t axis, add_axis;
  int rc = glow_c2_arg_int(op, "axis", glow_c2_arg_is(op, "order", "NHWC") ? 3 : 1, &axis) ||
           glow_c2_arg_int(op, "add_axis", 0, &add_axis);
  for (int k = 0; k < n && !rc; k++)
    rc = (in[k] = glow_c2_in(c, op, k)) < 0;
  int rank = rc ? 0 : c->g->vals[in[0]].rank + (add_axis != 0);
  axis += !rc && axis < 0 ? rank : 0;
  if (!rc && (axis < 0 || axis >= rank))
    rc = glow_c2_err(op, "axis %lld is outside the rank of the result (%d)", (long long)axis, rank);
  int32_t *split = glow_xmalloc(sizeof(int32_t) * (size_t)n);
  for (int k = 0; k < n && !rc; k++) {
    if (add_axis) {
      int u = glow_c2_tmp(c, op, "stacked");
      int node = glow_c2_node(c, op, GLOW_OP_UNSQUEEZE, "stack", 1, &in[k], 1, &u);
      glow_c2_attr_ints(c, node, "axes", &axis, 1);
      rc = glow_c2_infer(c, node);
      in[k] = u;
    }
    split[k] = rc || axis >= c->g->vals[in[k]].rank ? 0 : (int32_t)c->g->vals[in[k]].dims[axis];
  }
  if (!rc) {
    int y = glow_c2_out(c, op, 0);
    int node = glow_c2_node(c, op, GLOW_OP_CONCAT, NULL, n, in, 1, &y);
    glow_c2_attr_int(c, node, "axis", axis);
    rc = glow_c2_infer(c, node);
  }
  if (!rc && op->def->n_output > 1) /* split_info: each input's size along the axis */
    glow_value_make_const(c->g, glow_c2_out(c, op, 1), GLOW_DT_I32, 1, (int64_t[]){n}, split);
  free(in);
  free(split);
  return rc ? -1 : 0;
}

/* Reshape: the new shape from argument `shape` or input 1 (a constant); 0
 * keeps an input dimension and -1 is inferred, as in ONNX. */
int glow_c2_emit_reshape(glow_c2 *c, const glow_c2_op *op) {
  int x = glow_c2_in(c, op, 0);
  if (x < 0)
    return -1;
  int64_t dims[GLOW_MAX_RANK];
  int rank = glow_c2_arg_ints(op, "shape", dims, GLOW_MAX_RANK);
  if (rank == -1)
    return -1;
  if ((rank >= 0) == (op->def->n_input > 1))
    return glow_c2_err(op, "the new shape comes from argument 'shape' or from input 1: exactly one of them");
  if (rank < 0) {
    int s = glow_c2_in(c, op, 1);
    if (s < 0)
      return -1;
    if ((rank = glow_const_ints(c->g, s, dims, GLOW_MAX_RANK)) < 0)
      return glow_c2_err(op, "the new shape (input '%s') must be an integer constant of init_net, of at most %d "
                         "values", op->def->input[1], GLOW_MAX_RANK);
  }
  const glow_value *xv = &c->g->vals[x];
  int64_t old[GLOW_MAX_RANK];
  int old_rank = xv->rank;
  memcpy(old, xv->dims, sizeof old);
  int shape = glow_c2_const(c, op, "shape", GLOW_DT_I64, 1, (int64_t[]){rank}, dims);
  int y = glow_c2_out(c, op, 0);
  if (glow_c2_infer(c, glow_c2_node(c, op, GLOW_OP_RESHAPE, NULL, 2, (int[]){x, shape}, 1, &y)))
    return -1;
  if (op->def->n_output > 1) /* old_shape */
    glow_value_make_const(c->g, glow_c2_out(c, op, 1), GLOW_DT_I64, 1, (int64_t[]){old_rank}, old);
  return 0;
}

/* ChannelShuffle (NCHW): X as [N, group, C/group, rest], the two middle axes
 * swapped, back to X's shape. */
int glow_c2_emit_channel_shuffle(glow_c2 *c, const glow_c2_op *op) {
  int x = glow_c2_in(c, op, 0);
  int64_t group;
  if (x < 0 || glow_c2_check_nchw(op) || glow_c2_arg_int(op, "group", 1, &group))
    return -1;
  const glow_value *v = &c->g->vals[x];
  if (v->rank < 2 || group < 1 || v->dims[1] % group)
    return glow_c2_err(op, "group %lld must divide the channels (axis 1 of %d-D input '%s')", (long long)group,
                       v->rank, op->def->input[0]);
  int64_t rest = 1, split[4] = {v->dims[0], group, v->dims[1] / group, 0}, back[GLOW_MAX_RANK];
  for (int d = 2; d < v->rank; d++)
    rest *= v->dims[d];
  split[3] = rest;
  int rank = v->rank;
  memcpy(back, v->dims, sizeof back);
  int s1 = glow_c2_const(c, op, "split_shape", GLOW_DT_I64, 1, (int64_t[]){4}, split);
  int s2 = glow_c2_const(c, op, "shape", GLOW_DT_I64, 1, (int64_t[]){rank}, back);
  int a = glow_c2_tmp(c, op, "split"), b = glow_c2_tmp(c, op, "swapped");
  if (glow_c2_infer(c, glow_c2_node(c, op, GLOW_OP_RESHAPE, "split", 2, (int[]){x, s1}, 1, &a)))
    return -1;
  int t = glow_c2_node(c, op, GLOW_OP_TRANSPOSE, "swap", 1, &a, 1, &b);
  glow_c2_attr_ints(c, t, "perm", (const int64_t[]){0, 2, 1, 3}, 4);
  if (glow_c2_infer(c, t))
    return -1;
  int y = glow_c2_out(c, op, 0);
  return glow_c2_infer(c, glow_c2_node(c, op, GLOW_OP_RESHAPE, NULL, 2, (int[]){b, s2}, 1, &y));
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Flatten (axis, default 1), Transpose (axes, default reversed: ONNX perm),
 * Squeeze and ExpandDims (dims: ONNX axes; ExpandDims' sorted, as Caffe2
 * applies them in increasing order). */
int glow_c2_emit_axes(glow_c2 *c, const glow_c2_op *op) {
  int x = glow_c2_in(c, op, 0);
  if (x < 0)
    return -1;
  int flatten = !strcmp(op->type, "Flatten"), transpose = !strcmp(op->type, "Transpose");
  glow_op kind = flatten ? GLOW_OP_FLATTEN : transpose ? GLOW_OP_TRANSPOSE
               : !strcmp(op->type, "Squeeze") ? GLOW_OP_SQUEEZE : GLOW_OP_UNSQUEEZE;
  int64_t axis, v[GLOW_MAX_RANK];
  int n = 0;
  if (flatten && glow_c2_arg_int(op, "axis", 1, &axis))
    return -1;
  if (!flatten && (n = glow_c2_arg_ints(op, transpose ? "axes" : "dims", v, GLOW_MAX_RANK)) == -1)
    return -1;
  if (n == -2 && !transpose)
    return glow_c2_err(op, "argument 'dims' is missing");
  if (kind == GLOW_OP_UNSQUEEZE)
    qsort(v, (size_t)n, sizeof v[0], cmp_i64);
  int y = glow_c2_out(c, op, 0);
  int node = glow_c2_node(c, op, kind, NULL, 1, &x, 1, &y);
  if (flatten)
    glow_c2_attr_int(c, node, "axis", axis);
  else if (n >= 0)
    glow_c2_attr_ints(c, node, transpose ? "perm" : "axes", v, n);
  return glow_c2_infer(c, node);
}
