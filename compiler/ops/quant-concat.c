/* com.microsoft's QLinearConcat: inputs Y_scale, Y_zero_point, then
 * (X, X_scale, X_zero_point) per part, all of one dtype (uint8 or int8),
 * per-tensor parameters; attribute axis. As ONNX Runtime
 * (contrib_ops/cpu/quantization/qlinear_concat.cc), each part goes through a
 * table of its 256 values, QuantizeLinear of the dequantized value in float32:
 *   y = saturate(round_half_even((X_scale * (x - X_zp)) / Y_scale) + Y_zp)
 * (ONNX Runtime copies a part whose parameters are Y's: the formula then gives
 * x back). The kernel computes the formula, which vectorizes where a table does not. Kernel: glow_k_qlinear_concat_q8 (targets/common/kernels/quant.c). */
#include "ops/quant-util.h"

/* The axis, after checking every input; *parts: how many parts. */
static int qconcat_get(const glow_graph *g, const glow_node *n, int *axis, int *parts) {
  if (n->nin < 5 || (n->nin - 2) % 3)
    return glow_node_error(g, n, "takes Y_scale, Y_zero_point, then one or more (X, X_scale, X_zero_point) "
                           "triples: %d inputs do not make that", n->nin);
  const glow_value *yz = glow_in(g, n, 1), *x0 = glow_in(g, n, 2);
  if (!yz || !glow_q_is_8bit(yz->dt))
    return glow_node_error(g, n, "Y_zero_point must be given, a uint8 or int8 scalar");
  if (glow_q_check_param(g, n, 0, "Y_scale", 1, GLOW_DT_UNDEF, 1) ||
      glow_q_check_param(g, n, 1, "Y_zero_point", 0, yz->dt, 1))
    return -1;
  const glow_attr *a = glow_attr_find(n, "axis");
  if (!a)
    return glow_node_error(g, n, "the axis attribute is missing");
  if (!x0 || x0->rank == 0)
    return glow_node_error(g, n, "cannot concatenate scalars");
  if ((*axis = glow_norm_axis(g, n, a->i, x0->rank)) < 0)
    return -1;
  *parts = (n->nin - 2) / 3;
  for (int k = 0; k < *parts; k++) {
    const glow_value *x = glow_in(g, n, 2 + 3 * k);
    if (!x || x->dt != yz->dt || x->rank != x0->rank)
      return glow_node_error(g, n, "part %d must be %s of rank %d, as Y_zero_point and part 0", k,
                             glow_dtype_name(yz->dt), x0->rank);
    for (int d = 0; d < x0->rank; d++)
      if (d != *axis && x->dims[d] != x0->dims[d])
        return glow_node_error(g, n, "part %d differs from part 0 in dimension %d", k, d);
    if (!glow_in(g, n, 3 + 3 * k))
      return glow_node_error(g, n, "part %d has no X_scale", k);
    if (glow_q_check_param(g, n, 3 + 3 * k, "X_scale", 1, GLOW_DT_UNDEF, 1) ||
        glow_q_check_param(g, n, 4 + 3 * k, "X_zero_point", 0, yz->dt, 1))
      return -1;
  }
  return 0;
}

static int infer_qconcat(glow_graph *g, glow_node *n) {
  int axis, parts;
  if (qconcat_get(g, n, &axis, &parts))
    return -1;
  const glow_value *x0 = glow_in(g, n, 2);
  int64_t dims[GLOW_MAX_RANK];
  for (int d = 0; d < x0->rank; d++)
    dims[d] = x0->dims[d];
  dims[axis] = 0;
  for (int k = 0; k < parts; k++)
    dims[axis] += glow_in(g, n, 2 + 3 * k)->dims[axis];
  glow_value_set_shape(glow_out(g, n, 0), x0->dt, x0->rank, dims);
  return 0;
}

static int eval_qconcat(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  int axis, parts;
  if (qconcat_get(g, n, &axis, &parts))
    return -1;
  const glow_value *y = glow_out(g, n, 0);
  glow_dtype dt = y->dt;
  float ys = *(const float *)ins[0];
  int32_t zy = glow_q_zero(glow_in(g, n, 1), ins[1], 0), lo, hi;
  glow_q_range(dt, &lo, &hi);
  int64_t outer = glow_extent(y, 0, axis), row = glow_extent(y, axis, y->rank), at = 0;
  for (int k = 0; k < parts; k++) {
    const glow_value *x = glow_in(g, n, 2 + 3 * k);
    float xs = *(const float *)ins[3 + 3 * k];
    int32_t zx = glow_q_zero(glow_in(g, n, 4 + 3 * k), ins[4 + 3 * k], 0);
    int64_t len = glow_extent(x, axis, x->rank);
    for (int64_t r = 0; r < outer; r++)
      for (int64_t e = 0; e < len; e++) {
        float v = xs * (float)((int32_t)glow_elem_geti(dt, ins[2 + 3 * k], r * len + e) - zx);
        glow_elem_seti(dt, outs[0], r * row + at + e, glow_q_saturate(v / ys, zy, lo, hi));
      }
    at += len;
  }
  return 0;
}

static int lower_qconcat(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  int axis, parts;
  if (qconcat_get(g, n, &axis, &parts))
    return -1;
  if (parts > GLOW_Q_CONCAT_MAX_PARTS)
    return glow_node_error(g, n, "%d parts: at most %d are supported", parts, GLOW_Q_CONCAT_MAX_PARTS);
  const glow_value *y = glow_out(g, n, 0);
  int64_t len[GLOW_Q_CONCAT_MAX_PARTS];
  glow_kcall_init(kc, "glow_k_qlinear_concat_q8");
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < n->nin; i++)
    glow_kcall_tensor(kc, n->in[i]);
  for (int k = 0; k < parts; k++) {
    const glow_value *x = glow_in(g, n, 2 + 3 * k);
    len[k] = glow_extent(x, axis, x->rank);
  }
  glow_abi_concat a = {.k = parts, .outer = glow_extent(y, 0, axis)};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, parts, len);
  glow_kcall_param(kc, y->dt == GLOW_DT_I8); /* the int8 flag, at len[parts] */
  return 0;
}

const glow_op_info glow_op_QLINEAR_CONCAT = {"QLinearConcat", 5, -1, 1, 1, infer_qconcat, eval_qconcat,
                                             lower_qconcat};
