/* Comparisons and logic with numpy broadcasting, bool output: Equal, Less,
 * Greater, LessOrEqual, GreaterOrEqual, And, Or, Xor. */
#include "ops/elementwise-util.h"

typedef enum { EW_EQ, EW_LT, EW_GT, EW_LE, EW_GE, EW_AND, EW_OR, EW_XOR } cmp_kind;
static const char *const kernel_names[] = {"equal", "less", "greater", "less_equal", "greater_equal",
                                           "and", "or", "xor"};

static cmp_kind kind_of(const glow_node *n) {
  switch (n->op) {
  case GLOW_OP_EQUAL: return EW_EQ;
  case GLOW_OP_LESS: return EW_LT;
  case GLOW_OP_GREATER: return EW_GT;
  case GLOW_OP_LESS_OR_EQUAL: return EW_LE;
  case GLOW_OP_GREATER_OR_EQUAL: return EW_GE;
  case GLOW_OP_AND: return EW_AND;
  case GLOW_OP_OR: return EW_OR;
  case GLOW_OP_XOR: return EW_XOR;
  default: unreachable();
  }
  return EW_EQ;
}

static int infer_cmp(glow_graph *g, glow_node *n) {
  cmp_kind k = kind_of(n);
  unsigned mask = k == EW_EQ ? GLOW_EW_NUMERIC | GLOW_EW_BOOL : k >= EW_AND ? GLOW_EW_BOOL : GLOW_EW_NUMERIC;
  if (glow_ew_check_same_types(g, n) || glow_ew_check_type(g, n, 0, mask))
    return -1;
  return glow_ew_infer_broadcast(g, n, GLOW_DT_BOOL);
}

/* c: -1, 0 or 1 as a < b, a == b, a > b; 2 if unordered (NaN). */
static int holds(cmp_kind k, int c) {
  switch (k) {
  case EW_EQ: return c == 0;
  case EW_LT: return c == -1;
  case EW_GT: return c == 1;
  case EW_LE: return c == -1 || c == 0;
  case EW_GE: return c == 1 || c == 0;
  default: unreachable();
  }
  return 0;
}

static int eval_cmp(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *o = glow_out(g, n, 0);
  glow_dtype dt = glow_in(g, n, 0)->dt;
  cmp_kind k = kind_of(n);
  glow_ew_iter it;
  glow_ew_iter_init(&it, g, n, 0, 2);
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++, glow_ew_iter_next(&it)) {
    int r = 0;
    if (k >= EW_AND) {
      int a = glow_elem_geti(dt, ins[0], it.off[0]) != 0, b = glow_elem_geti(dt, ins[1], it.off[1]) != 0;
      r = k == EW_AND ? a && b : k == EW_OR ? a || b : a != b;
    } else if (glow_ew_domain_of(dt) == GLOW_EW_DOM_FLOAT) {
      double a = glow_elem_get(dt, ins[0], it.off[0]), b = glow_elem_get(dt, ins[1], it.off[1]);
      r = holds(k, a < b ? -1 : a > b ? 1 : a == b ? 0 : 2);
    } else if (glow_ew_domain_of(dt) == GLOW_EW_DOM_UNSIGNED) {
      uint64_t a = (uint64_t)glow_elem_geti(dt, ins[0], it.off[0]), b = (uint64_t)glow_elem_geti(dt, ins[1], it.off[1]);
      r = holds(k, a < b ? -1 : a > b ? 1 : 0);
    } else {
      int64_t a = glow_elem_geti(dt, ins[0], it.off[0]), b = glow_elem_geti(dt, ins[1], it.off[1]);
      r = holds(k, a < b ? -1 : a > b ? 1 : 0);
    }
    glow_elem_seti(GLOW_DT_BOOL, outs[0], i, r);
  }
  return 0;
}

static int lower_cmp(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_kcall_init(kc, "glow_k_%s_%s", kernel_names[kind_of(n)], glow_dtype_suffix(glow_in(g, n, 0)->dt));
  return glow_ew_lower_bcast(g, n, kc, 0, 2);
}

const glow_op_info glow_op_EQUAL = {"Equal", 2, 2, 1, 1, infer_cmp, eval_cmp, lower_cmp};
const glow_op_info glow_op_LESS = {"Less", 2, 2, 1, 1, infer_cmp, eval_cmp, lower_cmp};
const glow_op_info glow_op_GREATER = {"Greater", 2, 2, 1, 1, infer_cmp, eval_cmp, lower_cmp};
const glow_op_info glow_op_LESS_OR_EQUAL = {"LessOrEqual", 2, 2, 1, 1, infer_cmp, eval_cmp, lower_cmp};
const glow_op_info glow_op_GREATER_OR_EQUAL = {"GreaterOrEqual", 2, 2, 1, 1, infer_cmp, eval_cmp, lower_cmp};
const glow_op_info glow_op_AND = {"And", 2, 2, 1, 1, infer_cmp, eval_cmp, lower_cmp};
const glow_op_info glow_op_OR = {"Or", 2, 2, 1, 1, infer_cmp, eval_cmp, lower_cmp};
const glow_op_info glow_op_XOR = {"Xor", 2, 2, 1, 1, infer_cmp, eval_cmp, lower_cmp};
