/* IntLookupTable (Glow's node of that name): Y[i] = Table[X[i]], X int8 or
 * uint8 read as its byte (int8's -128 is Table[128]), Table 256 values of Y's
 * dtype (int8 or uint8); optional y_scale and y_zero_point say what Y's values
 * stand for (the bundle header's scale and offset; the kernel does not read them). glowc makes it (quant/fold-lookup.c) of a float op
 * between a DequantizeLinear and a QuantizeLinear, whose 256 results are known
 * when it compiles. Kernel: glow_k_int_lookup (targets/common/kernels/quant.c). */
#include "ops/quant-util.h"

static int lookup_check(const glow_graph *g, const glow_node *n) {
  const glow_value *x = glow_in(g, n, 0), *t = glow_in(g, n, 1);
  if (!glow_q_is_8bit(x->dt))
    return glow_node_error(g, n, "X must be int8 or uint8, not %s", glow_dtype_name(x->dt));
  if (!glow_q_is_8bit(t->dt) || glow_value_numel(t) != 256)
    return glow_node_error(g, n, "Table must hold 256 int8 or uint8 values, not %lld of %s",
                           (long long)glow_value_numel(t), glow_dtype_name(t->dt));
  return glow_q_check_param(g, n, 2, "y_scale", 1, GLOW_DT_UNDEF, 1) ||
         glow_q_check_param(g, n, 3, "y_zero_point", 0, t->dt, 1);
}

static int infer_lookup(glow_graph *g, glow_node *n) {
  if (lookup_check(g, n))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  glow_value_set_shape(glow_out(g, n, 0), glow_in(g, n, 1)->dt, x->rank, x->dims);
  return 0;
}

static int eval_lookup(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  if (lookup_check(g, n))
    return -1;
  const uint8_t *x = ins[0], *t = ins[1];
  uint8_t *y = outs[0];
  for (int64_t i = 0, e = glow_value_numel(glow_in(g, n, 0)); i < e; i++)
    y[i] = t[x[i]];
  return 0;
}

static int lower_lookup(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  if (lookup_check(g, n))
    return -1;
  glow_kcall_init(kc, "glow_k_int_lookup");
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, n->in[1]);
  glow_abi_count a = {.n = glow_value_numel(glow_in(g, n, 0))};
  glow_kcall_abi(kc, &a, sizeof a);
  int64_t bytes[3] = {1, 1, 0};
  glow_kcall_split(kc, GLOW_ABI_INDEX(glow_abi_count, n), bytes); /* parts: slices of the elements */
  return 0;
}

const glow_op_info glow_op_INT_LOOKUP_TABLE = {"IntLookupTable", 2, 4, 1, 1, infer_lookup, eval_lookup, lower_lookup};
