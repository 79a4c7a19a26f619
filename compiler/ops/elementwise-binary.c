/* Binary arithmetic with numpy broadcasting: Add, Sub, Mul, Div, Mod, Pow,
 * BitShift. Integer + - * wrap; integer division and remainder by 0 give 0
 * (ONNX leaves them undefined) and INT_MIN / -1 wraps. */
#include <math.h>
#include <string.h>

#include "ops/elementwise-util.h"

typedef enum { EW_ADD, EW_SUB, EW_MUL, EW_DIV, EW_MOD, EW_FMOD, EW_SHL, EW_SHR } arith_kind;
static const char *const kernel_names[] = {"add", "sub", "mul", "div", "mod", "fmod", "shl", "shr"};

static arith_kind kind_of(const glow_node *n) {
  switch (n->op) {
  case GLOW_OP_ADD: return EW_ADD;
  case GLOW_OP_SUB: return EW_SUB;
  case GLOW_OP_MUL: return EW_MUL;
  case GLOW_OP_DIV: return EW_DIV;
  case GLOW_OP_MOD: return glow_attr_int(n, "fmod", 0) ? EW_FMOD : EW_MOD;
  case GLOW_OP_BITSHIFT: return strcmp(glow_attr_string(n, "direction", ""), "LEFT") ? EW_SHR : EW_SHL;
  default: unreachable();
  }
  return EW_ADD;
}

static int infer_arith(glow_graph *g, glow_node *n) {
  unsigned mask = GLOW_EW_NUMERIC;
  if (n->op == GLOW_OP_MOD && glow_attr_int(n, "fmod", 0) != 0 && glow_attr_int(n, "fmod", 0) != 1)
    return glow_node_error(g, n, "fmod=%lld: must be 0 or 1", (long long)glow_attr_int(n, "fmod", 0));
  if (n->op == GLOW_OP_BITSHIFT) {
    const char *dir = glow_attr_string(n, "direction", "");
    if (strcmp(dir, "LEFT") && strcmp(dir, "RIGHT"))
      return glow_node_error(g, n, "direction '%s': must be LEFT or RIGHT", dir);
    mask = GLOW_EW_UINTS;
  }
  if (glow_ew_check_same_types(g, n) || glow_ew_check_type(g, n, 0, mask))
    return -1;
  return glow_ew_infer_broadcast(g, n, glow_in(g, n, 0)->dt);
}

/* numpy's remainder takes the divisor's sign; C's fmod the dividend's. */
static double arith_f(arith_kind k, double a, double b) {
  switch (k) {
  case EW_ADD: return a + b;
  case EW_SUB: return a - b;
  case EW_MUL: return a * b;
  case EW_DIV: return a / b;
  case EW_MOD: {
    double r = fmod(a, b);
    return r != 0 && (r < 0) != (b < 0) ? r + b : r;
  }
  case EW_FMOD: return fmod(a, b);
  default: unreachable();
  }
  return 0;
}

static int64_t arith_s(arith_kind k, int64_t a, int64_t b) {
  switch (k) {
  case EW_ADD: return (int64_t)((uint64_t)a + (uint64_t)b);
  case EW_SUB: return (int64_t)((uint64_t)a - (uint64_t)b);
  case EW_MUL: return (int64_t)((uint64_t)a * (uint64_t)b);
  case EW_DIV: return b == 0 ? 0 : b == -1 ? (int64_t)(0 - (uint64_t)a) : a / b;
  case EW_MOD: {
    if (b == 0 || b == -1)
      return 0;
    int64_t r = a % b;
    return r != 0 && (r < 0) != (b < 0) ? r + b : r;
  }
  case EW_FMOD: return b == 0 || b == -1 ? 0 : a % b;
  default: unreachable();
  }
  return 0;
}

static uint64_t arith_u(arith_kind k, uint64_t a, uint64_t b, unsigned bits) {
  switch (k) {
  case EW_ADD: return a + b;
  case EW_SUB: return a - b;
  case EW_MUL: return a * b;
  case EW_DIV: return b == 0 ? 0 : a / b;
  case EW_MOD:
  case EW_FMOD: return b == 0 ? 0 : a % b;
  case EW_SHL: return b >= bits ? 0 : a << b;
  case EW_SHR: return b >= bits ? 0 : a >> b;
  }
  return 0;
}

static int eval_arith(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *o = glow_out(g, n, 0);
  glow_dtype dt = o->dt;
  arith_kind k = kind_of(n);
  glow_ew_iter it;
  glow_ew_iter_init(&it, g, n, 0, 2);
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++, glow_ew_iter_next(&it)) {
    switch (glow_ew_domain_of(dt)) {
    case GLOW_EW_DOM_FLOAT:
      glow_elem_set(dt, outs[0], i, arith_f(k, glow_elem_get(dt, ins[0], it.off[0]), glow_elem_get(dt, ins[1], it.off[1])));
      break;
    case GLOW_EW_DOM_SIGNED:
      glow_elem_seti(dt, outs[0], i, arith_s(k, glow_elem_geti(dt, ins[0], it.off[0]), glow_elem_geti(dt, ins[1], it.off[1])));
      break;
    case GLOW_EW_DOM_UNSIGNED:
      glow_elem_seti(dt, outs[0], i, (int64_t)arith_u(k, (uint64_t)glow_elem_geti(dt, ins[0], it.off[0]),
                                                      (uint64_t)glow_elem_geti(dt, ins[1], it.off[1]),
                                                      8 * (unsigned)glow_dtype_size(dt)));
      break;
    }
  }
  return 0;
}

static int lower_arith(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_kcall_init(kc, "glow_k_%s_%s", kernel_names[kind_of(n)], glow_dtype_suffix(glow_out(g, n, 0)->dt));
  return glow_ew_lower_bcast(g, n, kc, 0, 2);
}

/* Pow: the result has the base's type; opset 12 lets the exponent's differ. */
static int infer_pow(glow_graph *g, glow_node *n) {
  unsigned base = GLOW_EW_FLOATS | GLOW_EW_BIT(GLOW_DT_I32) | GLOW_EW_BIT(GLOW_DT_I64);
  if (glow_ew_check_type(g, n, 0, base) || glow_ew_check_type(g, n, 1, GLOW_EW_NUMERIC))
    return -1;
  return glow_ew_infer_broadcast(g, n, glow_in(g, n, 0)->dt);
}

/* Integer powers by squaring, wrapping like the kernel's int64 arithmetic. */
static int64_t ipow(int64_t x, uint64_t e) {
  uint64_t r = 1, b = (uint64_t)x;
  for (; e; e >>= 1, b *= b)
    if (e & 1)
      r *= b;
  return (int64_t)r;
}

/* double -> int64 without undefined behaviour (out of range is undefined in ONNX: saturate, NaN -> 0). */
static int64_t d2i(double v) {
  if (v != v)
    return 0;
  if (v >= 9223372036854775808.0)
    return INT64_MAX;
  if (v < -9223372036854775808.0)
    return INT64_MIN;
  return (int64_t)v;
}

static int eval_pow(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *o = glow_out(g, n, 0);
  glow_dtype dt = o->dt, et = glow_in(g, n, 1)->dt;
  glow_ew_iter it;
  glow_ew_iter_init(&it, g, n, 0, 2);
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++, glow_ew_iter_next(&it)) {
    if (glow_dtype_is_float(dt) || glow_dtype_is_float(et)) {
      double r = pow(glow_elem_get(dt, ins[0], it.off[0]), glow_elem_get(et, ins[1], it.off[1]));
      if (glow_dtype_is_float(dt))
        glow_elem_set(dt, outs[0], i, r);
      else
        glow_elem_seti(dt, outs[0], i, d2i(r));
      continue;
    }
    int64_t x = glow_elem_geti(dt, ins[0], it.off[0]), y = glow_elem_geti(et, ins[1], it.off[1]);
    int64_t r;
    if (glow_dtype_is_unsigned_int(et) || y >= 0)
      r = ipow(x, (uint64_t)y);
    else /* 1 / x^|y| truncated */
      r = x == 1 ? 1 : x == -1 ? (y & 1 ? -1 : 1) : 0;
    glow_elem_seti(dt, outs[0], i, r);
  }
  return 0;
}

/* A constant exponent of 2 over a float base (x * x is the same value) uses the mul kernel. */
static int is_square(const glow_graph *g, const glow_node *n) {
  const glow_value *x = glow_in(g, n, 0), *e = glow_in(g, n, 1), *o = glow_out(g, n, 0);
  if (!glow_dtype_is_float(x->dt) || e->kind != GLOW_VAL_CONST || glow_value_numel(x) != glow_value_numel(o))
    return 0;
  for (int64_t i = 0, k = glow_value_numel(e); i < k; i++)
    if (glow_elem_get(e->dt, e->data, i) != 2)
      return 0;
  return 1;
}

static int lower_pow(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  if (is_square(g, n)) {
    glow_abi_ew a = {.r = 1};
    int64_t dims_strides[3] = {glow_value_numel(glow_out(g, n, 0)), 1, 1}; /* one axis; x's stride twice */
    glow_kcall_init(kc, "glow_k_mul_%s", glow_dtype_suffix(glow_in(g, n, 0)->dt));
    glow_kcall_tensor(kc, n->out[0]);
    glow_kcall_tensor(kc, n->in[0]);
    glow_kcall_tensor(kc, n->in[0]);
    glow_kcall_abi(kc, &a, sizeof a);
    glow_kcall_params(kc, 3, dims_strides);
    return 0;
  }
  glow_kcall_init(kc, "glow_k_pow_%s_%s", glow_dtype_suffix(glow_in(g, n, 0)->dt),
                  glow_dtype_suffix(glow_in(g, n, 1)->dt));
  return glow_ew_lower_bcast(g, n, kc, 0, 2);
}

const glow_op_info glow_op_ADD = {"Add", 2, 2, 1, 1, infer_arith, eval_arith, lower_arith};
const glow_op_info glow_op_SUB = {"Sub", 2, 2, 1, 1, infer_arith, eval_arith, lower_arith};
const glow_op_info glow_op_MUL = {"Mul", 2, 2, 1, 1, infer_arith, eval_arith, lower_arith};
const glow_op_info glow_op_DIV = {"Div", 2, 2, 1, 1, infer_arith, eval_arith, lower_arith};
const glow_op_info glow_op_MOD = {"Mod", 2, 2, 1, 1, infer_arith, eval_arith, lower_arith};
const glow_op_info glow_op_BITSHIFT = {"BitShift", 2, 2, 1, 1, infer_arith, eval_arith, lower_arith};
const glow_op_info glow_op_POW = {"Pow", 2, 2, 1, 1, infer_pow, eval_pow, lower_pow};
