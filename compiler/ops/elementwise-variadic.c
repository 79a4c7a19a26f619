/* Variadic ops with numpy broadcasting over 1..63 inputs: Sum, Mean, Max, Min.
 * Max and Min propagate NaN, as numpy's maximum and minimum. */
#include "ops/elementwise-util.h"

typedef enum { EW_SUM, EW_MEAN, EW_MAX, EW_MIN } var_kind;
static const char *const kernel_names[] = {"sum", "mean", "max", "min"};

static var_kind kind_of(const glow_node *n) {
  switch (n->op) {
  case GLOW_OP_SUM: return EW_SUM;
  case GLOW_OP_MEAN: return EW_MEAN;
  case GLOW_OP_MAX: return EW_MAX;
  case GLOW_OP_MIN: return EW_MIN;
  default: unreachable();
  }
  return EW_SUM;
}

static int infer_variadic(glow_graph *g, glow_node *n) {
  var_kind k = kind_of(n);
  if (n->nin > GLOW_EW_MAX_IN)
    return glow_node_error(g, n, "%d inputs: at most %d are supported", n->nin, GLOW_EW_MAX_IN);
  for (int i = 0; i < n->nin; i++)
    if (!glow_in(g, n, i))
      return glow_node_error(g, n, "input %d is empty", i);
  if (glow_ew_check_same_types(g, n) ||
      glow_ew_check_type(g, n, 0, k == EW_SUM || k == EW_MEAN ? GLOW_EW_FLOATS : GLOW_EW_NUMERIC))
    return -1;
  return glow_ew_infer_broadcast(g, n, glow_in(g, n, 0)->dt);
}

/* v rounded to dt: Sum and Mean round after each addition, as numpy's reduce of np.add does;
 * float16 and bfloat16 add in float (as the kernels, and ONNX Runtime, do). */
static double round_to(glow_dtype dt, double v) {
  unsigned char buf[8];
  if (dt == GLOW_DT_F16 || dt == GLOW_DT_BF16)
    dt = GLOW_DT_F32;
  glow_elem_set(dt, buf, 0, v);
  return glow_elem_get(dt, buf, 0);
}

static int eval_variadic(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *o = glow_out(g, n, 0);
  glow_dtype dt = o->dt;
  var_kind k = kind_of(n);
  glow_ew_iter it;
  glow_ew_iter_init(&it, g, n, 0, n->nin);
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++, glow_ew_iter_next(&it)) {
    if (glow_ew_domain_of(dt) == GLOW_EW_DOM_FLOAT) {
      double acc = glow_elem_get(dt, ins[0], it.off[0]);
      for (int j = 1; j < n->nin; j++) {
        double v = glow_elem_get(dt, ins[j], it.off[j]);
        if (k == EW_SUM || k == EW_MEAN)
          acc = round_to(dt, acc + v);
        else if (acc == acc && (v != v || (k == EW_MAX ? v > acc : v < acc)))
          acc = v;
      }
      glow_elem_set(dt, outs[0], i, k == EW_MEAN ? acc / n->nin : acc);
    } else if (glow_ew_domain_of(dt) == GLOW_EW_DOM_UNSIGNED) {
      uint64_t acc = (uint64_t)glow_elem_geti(dt, ins[0], it.off[0]);
      for (int j = 1; j < n->nin; j++) {
        uint64_t v = (uint64_t)glow_elem_geti(dt, ins[j], it.off[j]);
        acc = k == EW_MAX ? (v > acc ? v : acc) : (v < acc ? v : acc);
      }
      glow_elem_seti(dt, outs[0], i, (int64_t)acc);
    } else {
      int64_t acc = glow_elem_geti(dt, ins[0], it.off[0]);
      for (int j = 1; j < n->nin; j++) {
        int64_t v = glow_elem_geti(dt, ins[j], it.off[j]);
        acc = k == EW_MAX ? (v > acc ? v : acc) : (v < acc ? v : acc);
      }
      glow_elem_seti(dt, outs[0], i, acc);
    }
  }
  return 0;
}

/* Two inputs of Sum, Max or Min use the one-pass binary kernels (add, max, min). */
static int lower_variadic(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  var_kind k = kind_of(n);
  const char *sfx = glow_dtype_suffix(glow_out(g, n, 0)->dt);
  if (n->nin == 2 && k != EW_MEAN) {
    glow_kcall_init(kc, "glow_k_%s_%s", k == EW_SUM ? "add" : kernel_names[k], sfx);
    return glow_ew_lower_bcast(g, n, kc, 0, 2);
  }
  glow_kcall_init(kc, "glow_k_%s_n_%s", kernel_names[k], sfx);
  glow_abi_ew_n a = {.n = n->nin}; /* glow_ew_lower_bcast appends r and the arrays */
  glow_kcall_abi(kc, &a, offsetof(glow_abi_ew_n, r));
  return glow_ew_lower_bcast(g, n, kc, 0, n->nin);
}

const glow_op_info glow_op_SUM = {"Sum", 1, -1, 1, 1, infer_variadic, eval_variadic, lower_variadic};
const glow_op_info glow_op_MEAN = {"Mean", 1, -1, 1, 1, infer_variadic, eval_variadic, lower_variadic};
const glow_op_info glow_op_MAX = {"Max", 1, -1, 1, 1, infer_variadic, eval_variadic, lower_variadic};
const glow_op_info glow_op_MIN = {"Min", 1, -1, 1, 1, infer_variadic, eval_variadic, lower_variadic};
