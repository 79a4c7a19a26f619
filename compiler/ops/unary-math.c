/* Unary elementwise ops. */
#include "ops/op-util.h"

static int infer_float(glow_graph *g, glow_node *n) {
  if (!glow_dtype_is_float(glow_in(g, n, 0)->dt))
    return glow_node_error(g, n, "input type %s is not supported", glow_dtype_name(glow_in(g, n, 0)->dt));
  return glow_infer_same_as_input(g, n);
}

static int eval_relu(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  for (int64_t i = 0, e = glow_value_numel(x); i < e; i++) {
    double v = glow_elem_get(x->dt, ins[0], i);
    glow_elem_set(x->dt, outs[0], i, v > 0 ? v : 0);
  }
  return 0;
}

static int lower_unary(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  if (x->dt != GLOW_DT_F32)
    return glow_node_error(g, n, "no kernel for input type %s", glow_dtype_name(x->dt));
  glow_kcall_init(kc, "glow_k_relu_f32");
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_param(kc, glow_value_numel(x));
  return 0;
}

const glow_op_info glow_op_RELU = {"Relu", 1, 1, 1, 1, infer_float, eval_relu, lower_unary};
