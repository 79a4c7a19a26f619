/* Softmax, LogSoftmax, Hardmax (opset < 13: the input coerced to 2-D at axis, default 1;
 * opset >= 13: along one axis, default -1). */
#include <math.h>

#include "ops/op-util.h"

static int softmax_extents(const glow_graph *g, const glow_node *n, int64_t *outer, int64_t *len, int64_t *inner) {
  const glow_value *x = glow_in(g, n, 0);
  int new_semantics = g->opset >= 13;
  int axis = glow_norm_axis(g, n, glow_attr_int(n, "axis", new_semantics ? -1 : 1), x->rank);
  if (axis < 0)
    return -1;
  *outer = *len = *inner = 1;
  for (int d = 0; d < x->rank; d++) {
    if (d < axis)
      *outer *= x->dims[d];
    else if (d == axis || !new_semantics)
      *len *= x->dims[d];
    else
      *inner *= x->dims[d];
  }
  return 0;
}

static int infer_softmax(glow_graph *g, glow_node *n) {
  int64_t o, l, i;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  if (dt != GLOW_DT_F32 && dt != GLOW_DT_F64 && dt != GLOW_DT_F16 && dt != GLOW_DT_BF16)
    return glow_node_error(g, n, "input type %s is not supported", glow_dtype_name(dt));
  if (softmax_extents(g, n, &o, &l, &i))
    return -1;
  return glow_infer_same_as_input(g, n);
}

static int eval_softmax(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  int64_t outer, len, inner;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  if (softmax_extents(g, n, &outer, &len, &inner))
    return -1;
  for (int64_t a = 0; a < outer; a++)
    for (int64_t c = 0; c < inner; c++) {
      int64_t base = a * len * inner + c, first_max = 0;
      double mx = -INFINITY, sum = 0;
      for (int64_t k = 0; k < len; k++) {
        double v = glow_elem_get(dt, ins[0], base + k * inner);
        if (v > mx || k == 0) {
          mx = v;
          first_max = k;
        }
      }
      for (int64_t k = 0; k < len; k++)
        sum += exp(glow_elem_get(dt, ins[0], base + k * inner) - mx);
      for (int64_t k = 0; k < len; k++) {
        double v = glow_elem_get(dt, ins[0], base + k * inner) - mx, y;
        if (n->op == GLOW_OP_SOFTMAX)
          y = exp(v) / sum;
        else if (n->op == GLOW_OP_LOG_SOFTMAX)
          y = v - log(sum);
        else
          y = k == first_max;
        glow_elem_set(dt, outs[0], base + k * inner, y);
      }
    }
  return 0;
}

static int lower_softmax(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_abi_softmax a;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  if (dt != GLOW_DT_F32 && dt != GLOW_DT_F64)
    return glow_node_error(g, n, "no %s kernel for type %s", glow_op_get(n->op)->onnx_name, glow_dtype_name(dt));
  if (softmax_extents(g, n, &a.outer, &a.len, &a.inner))
    return -1;
  const char *k = n->op == GLOW_OP_SOFTMAX ? "softmax" : n->op == GLOW_OP_LOG_SOFTMAX ? "log_softmax" : "hardmax";
  glow_kcall_init(kc, "glow_k_%s_%s", k, glow_dtype_suffix(dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_abi(kc, &a, sizeof a);
  int64_t row = a.len * a.inner * (int64_t)glow_dtype_size(dt), bytes[2] = {row, row};
  glow_kcall_split(kc, GLOW_ABI_INDEX(glow_abi_softmax, outer), bytes); /* parts: slices of the outer rows */
  return 0;
}

const glow_op_info glow_op_SOFTMAX = {"Softmax", 1, 1, 1, 1, infer_softmax, eval_softmax, lower_softmax};
const glow_op_info glow_op_LOG_SOFTMAX = {"LogSoftmax", 1, 1, 1, 1, infer_softmax, eval_softmax, lower_softmax};
const glow_op_info glow_op_HARDMAX = {"Hardmax", 1, 1, 1, 1, infer_softmax, eval_softmax, lower_softmax};
