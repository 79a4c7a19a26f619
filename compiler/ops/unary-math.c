/* Elementwise unary ops: math functions, activations and predicates, one
 * table row each. Kernels: targets/common/kernels/unary-math.c, called with
 * p = n, a, b where a and b are the row's two attributes (0 if it has fewer). */
#include <math.h>
#include <string.h>

#include "ops/op-util.h"

enum { F = 1, S = 2, U = 4, B = 8 }; /* input dtypes: float, signed, unsigned, bool */

typedef struct {
  glow_op op;
  const char *kernel;
  unsigned types;
  const char *attr[2];
  double dflt[2];
  double (*ref)(double x, double a, double b);          /* floats */
  int64_t (*refi)(int64_t x, int is_unsigned, double a, double b); /* integers, bool */
  int pred;                                             /* the output is bool */
} unary_def;

#define R(name, expr)                                                                                        \
  static double name(double x, double a, double b) {                                                         \
    (void)a;                                                                                                 \
    (void)b;                                                                                                 \
    return expr;                                                                                             \
  }
R(r_abs, fabs(x))
R(r_neg, -x)
R(r_reciprocal, 1 / x)
R(r_sqrt, sqrt(x))
R(r_exp, exp(x))
R(r_log, log(x))
R(r_floor, floor(x))
R(r_ceil, ceil(x))
R(r_round, nearbyint(x))
R(r_sign, x > 0 ? 1 : x < 0 ? -1 : x)
R(r_sin, sin(x))
R(r_cos, cos(x))
R(r_tan, tan(x))
R(r_asin, asin(x))
R(r_acos, acos(x))
R(r_atan, atan(x))
R(r_sinh, sinh(x))
R(r_cosh, cosh(x))
R(r_asinh, asinh(x))
R(r_acosh, acosh(x))
R(r_atanh, atanh(x))
R(r_erf, erf(x))
R(r_tanh, tanh(x))
R(r_sigmoid, 1 / (1 + exp(-x)))
R(r_softplus, x > 0 ? x + log1p(exp(-x)) : log1p(exp(x)))
R(r_softsign, x / (1 + fabs(x)))
R(r_relu, x < 0 ? 0 : x)
R(r_leakyrelu, x < 0 ? a * x : x)
R(r_hardsigmoid, isnan(x) ? x : fmax(0, fmin(1, a * x + b)))
R(r_hardswish, isnan(x) ? x : x * fmax(0, fmin(1, x / 6 + 0.5)))
R(r_elu, x < 0 ? a * (exp(x) - 1) : x)
R(r_selu, x > 0 ? b * x : b * (a * exp(x) - a))
R(r_celu, isnan(x) ? x : fmax(0, x) + fmin(0, a * (exp(x / a) - 1)))
R(r_thresholdedrelu, x > a ? x : 0)
R(r_mish, x * tanh(x > 0 ? x + log1p(exp(-x)) : log1p(exp(x))))
/* Gelu: a = 1 for approximate="tanh". */
R(r_gelu, a != 0 ? 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))
                 : 0.5 * x * (1 + erf(x * 0.7071067811865476)))
R(r_shrink, x < -b ? x + a : x > b ? x - a : 0)
R(r_isnan, isnan(x))
R(r_isinf, (isinf(x) && x < 0 && a != 0) || (isinf(x) && x > 0 && b != 0))

#define RI(name, expr)                                                                                       \
  static int64_t name(int64_t x, int is_unsigned, double a, double b) {                                     \
    (void)is_unsigned;                                                                                       \
    (void)a;                                                                                                 \
    (void)b;                                                                                                 \
    return expr;                                                                                             \
  }
/* Negation in uint64 so that the most negative value wraps to itself. */
RI(ri_abs, !is_unsigned && x < 0 ? (int64_t)(0 - (uint64_t)x) : x)
RI(ri_neg, (int64_t)(0 - (uint64_t)x))
RI(ri_sign, x == 0 ? 0 : is_unsigned || x > 0 ? 1 : -1)
RI(ri_relu, x < 0 ? 0 : x)
RI(ri_shrink, (int64_t)r_shrink((double)x, a, b))
RI(ri_not, !x)

static const unary_def defs[] = {
    {GLOW_OP_ABS, "abs", F | S | U, {0}, {0}, r_abs, ri_abs, 0},
    {GLOW_OP_NEG, "neg", F | S, {0}, {0}, r_neg, ri_neg, 0},
    {GLOW_OP_RECIPROCAL, "reciprocal", F, {0}, {0}, r_reciprocal, 0, 0},
    {GLOW_OP_SQRT, "sqrt", F, {0}, {0}, r_sqrt, 0, 0},
    {GLOW_OP_EXP, "exp", F, {0}, {0}, r_exp, 0, 0},
    {GLOW_OP_LOG, "log", F, {0}, {0}, r_log, 0, 0},
    {GLOW_OP_FLOOR, "floor", F, {0}, {0}, r_floor, 0, 0},
    {GLOW_OP_CEIL, "ceil", F, {0}, {0}, r_ceil, 0, 0},
    {GLOW_OP_ROUND, "round", F, {0}, {0}, r_round, 0, 0},
    {GLOW_OP_SIGN, "sign", F | S | U, {0}, {0}, r_sign, ri_sign, 0},
    {GLOW_OP_SIN, "sin", F, {0}, {0}, r_sin, 0, 0},
    {GLOW_OP_COS, "cos", F, {0}, {0}, r_cos, 0, 0},
    {GLOW_OP_TAN, "tan", F, {0}, {0}, r_tan, 0, 0},
    {GLOW_OP_ASIN, "asin", F, {0}, {0}, r_asin, 0, 0},
    {GLOW_OP_ACOS, "acos", F, {0}, {0}, r_acos, 0, 0},
    {GLOW_OP_ATAN, "atan", F, {0}, {0}, r_atan, 0, 0},
    {GLOW_OP_SINH, "sinh", F, {0}, {0}, r_sinh, 0, 0},
    {GLOW_OP_COSH, "cosh", F, {0}, {0}, r_cosh, 0, 0},
    {GLOW_OP_ASINH, "asinh", F, {0}, {0}, r_asinh, 0, 0},
    {GLOW_OP_ACOSH, "acosh", F, {0}, {0}, r_acosh, 0, 0},
    {GLOW_OP_ATANH, "atanh", F, {0}, {0}, r_atanh, 0, 0},
    {GLOW_OP_ERF, "erf", F, {0}, {0}, r_erf, 0, 0},
    {GLOW_OP_TANH, "tanh", F, {0}, {0}, r_tanh, 0, 0},
    {GLOW_OP_SIGMOID, "sigmoid", F, {0}, {0}, r_sigmoid, 0, 0},
    {GLOW_OP_SOFTPLUS, "softplus", F, {0}, {0}, r_softplus, 0, 0},
    {GLOW_OP_SOFTSIGN, "softsign", F, {0}, {0}, r_softsign, 0, 0},
    {GLOW_OP_RELU, "relu", F | S, {0}, {0}, r_relu, ri_relu, 0},
    {GLOW_OP_LEAKYRELU, "leakyrelu", F, {"alpha"}, {0.01}, r_leakyrelu, 0, 0},
    {GLOW_OP_HARDSIGMOID, "hardsigmoid", F, {"alpha", "beta"}, {0.2, 0.5}, r_hardsigmoid, 0, 0},
    {GLOW_OP_HARDSWISH, "hardswish", F, {0}, {0}, r_hardswish, 0, 0},
    {GLOW_OP_ELU, "elu", F, {"alpha"}, {1.0}, r_elu, 0, 0},
    {GLOW_OP_SELU, "selu", F, {"alpha", "gamma"}, {1.67326319217681884765625, 1.05070102214813232421875}, r_selu, 0,
     0},
    {GLOW_OP_CELU, "celu", F, {"alpha"}, {1.0}, r_celu, 0, 0},
    {GLOW_OP_THRESHOLDEDRELU, "thresholdedrelu", F, {"alpha"}, {1.0}, r_thresholdedrelu, 0, 0},
    {GLOW_OP_MISH, "mish", F, {0}, {0}, r_mish, 0, 0},
    {GLOW_OP_GELU, "gelu", F, {0}, {0}, r_gelu, 0, 0},
    {GLOW_OP_SHRINK, "shrink", F | S | U, {"bias", "lambd"}, {0.0, 0.5}, r_shrink, ri_shrink, 0},
    {GLOW_OP_NOT, "not", B, {0}, {0}, 0, ri_not, 0},
    {GLOW_OP_ISNAN, "isnan", F, {0}, {0}, r_isnan, 0, 1},
    {GLOW_OP_ISINF, "isinf", F, {"detect_negative", "detect_positive"}, {1, 1}, r_isinf, 0, 1},
};

static const unary_def *def_of(const glow_node *n) {
  for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
    if (defs[i].op == n->op)
      return &defs[i];
  unreachable();
  return NULL;
}

static unsigned type_class(glow_dtype dt) {
  return glow_dtype_is_float(dt) ? F : glow_dtype_is_signed_int(dt) ? S : glow_dtype_is_unsigned_int(dt) ? U
         : dt == GLOW_DT_BOOL                                             ? B
                                                                          : 0;
}

/* The row's attributes a, b (IsInf's are integers; Gelu's a is approximate == "tanh"). */
static void attrs_of(const glow_node *n, const unary_def *d, double *ab) {
  if (d->op == GLOW_OP_GELU) {
    ab[0] = !strcmp(glow_attr_string(n, "approximate", "none"), "tanh");
    ab[1] = 0;
    return;
  }
  for (int i = 0; i < 2; i++)
    ab[i] = !d->attr[i]                  ? 0
            : d->op == GLOW_OP_ISINF     ? (double)glow_attr_int(n, d->attr[i], (int64_t)d->dflt[i])
                                         : glow_attr_float(n, d->attr[i], d->dflt[i]);
}

static int infer_unary(glow_graph *g, glow_node *n) {
  const unary_def *d = def_of(n);
  const glow_value *x = glow_in(g, n, 0);
  if (!(type_class(x->dt) & d->types))
    return glow_node_error(g, n, "input type %s is not supported", glow_dtype_name(x->dt));
  const char *approx = glow_attr_string(n, "approximate", "none");
  if (n->op == GLOW_OP_GELU && strcmp(approx, "none") && strcmp(approx, "tanh"))
    return glow_node_error(g, n, "approximate '%s': must be none or tanh", approx);
  if (n->op == GLOW_OP_SHRINK && glow_dtype_size(x->dt) == 8 && !glow_dtype_is_float(x->dt))
    return glow_node_error(g, n, "input type %s is not supported (64-bit integers would round through double)",
                           glow_dtype_name(x->dt));
  glow_value_set_shape(glow_out(g, n, 0), d->pred ? GLOW_DT_BOOL : x->dt, x->rank, x->dims);
  return 0;
}

static int eval_unary(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const unary_def *d = def_of(n);
  const glow_value *x = glow_in(g, n, 0);
  glow_dtype odt = glow_out(g, n, 0)->dt;
  double ab[2];
  attrs_of(n, d, ab);
  for (int64_t i = 0, e = glow_value_numel(x); i < e; i++) {
    if (glow_dtype_is_float(x->dt))
      glow_elem_set(odt, outs[0], i, d->ref(glow_elem_get(x->dt, ins[0], i), ab[0], ab[1]));
    else
      glow_elem_seti(odt, outs[0], i,
                     d->refi(glow_elem_geti(x->dt, ins[0], i), glow_dtype_is_unsigned_int(x->dt), ab[0], ab[1]));
  }
  return 0;
}

static int lower_unary(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const unary_def *d = def_of(n);
  const glow_value *x = glow_in(g, n, 0);
  double ab[2];
  attrs_of(n, d, ab);
  glow_kcall_init(kc, "glow_k_%s_%s", d->kernel, glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_unary a = {.n = glow_value_numel(x), .a = glow_f2p(ab[0]), .b = glow_f2p(ab[1])};
  glow_kcall_abi(kc, &a, sizeof a);
  int64_t bytes[2] = {(int64_t)glow_dtype_size(glow_out(g, n, 0)->dt), (int64_t)glow_dtype_size(x->dt)};
  glow_kcall_split(kc, GLOW_ABI_INDEX(glow_abi_unary, n), bytes); /* parts: slices of the elements */
  return 0;
}

#define UNARY_OP(id, name) const glow_op_info glow_op_##id = {name, 1, 1, 1, 1, infer_unary, eval_unary, lower_unary};
UNARY_OP(ABS, "Abs")
UNARY_OP(NEG, "Neg")
UNARY_OP(RECIPROCAL, "Reciprocal")
UNARY_OP(SQRT, "Sqrt")
UNARY_OP(EXP, "Exp")
UNARY_OP(LOG, "Log")
UNARY_OP(FLOOR, "Floor")
UNARY_OP(CEIL, "Ceil")
UNARY_OP(ROUND, "Round")
UNARY_OP(SIGN, "Sign")
UNARY_OP(SIN, "Sin")
UNARY_OP(COS, "Cos")
UNARY_OP(TAN, "Tan")
UNARY_OP(ASIN, "Asin")
UNARY_OP(ACOS, "Acos")
UNARY_OP(ATAN, "Atan")
UNARY_OP(SINH, "Sinh")
UNARY_OP(COSH, "Cosh")
UNARY_OP(ASINH, "Asinh")
UNARY_OP(ACOSH, "Acosh")
UNARY_OP(ATANH, "Atanh")
UNARY_OP(ERF, "Erf")
UNARY_OP(TANH, "Tanh")
UNARY_OP(SIGMOID, "Sigmoid")
UNARY_OP(SOFTPLUS, "Softplus")
UNARY_OP(SOFTSIGN, "Softsign")
UNARY_OP(RELU, "Relu")
UNARY_OP(LEAKYRELU, "LeakyRelu")
UNARY_OP(HARDSIGMOID, "HardSigmoid")
UNARY_OP(HARDSWISH, "HardSwish")
UNARY_OP(ELU, "Elu")
UNARY_OP(SELU, "Selu")
UNARY_OP(CELU, "Celu")
UNARY_OP(THRESHOLDEDRELU, "ThresholdedRelu")
UNARY_OP(MISH, "Mish")
UNARY_OP(GELU, "Gelu")
UNARY_OP(SHRINK, "Shrink")
UNARY_OP(NOT, "Not")
UNARY_OP(ISNAN, "IsNaN")
UNARY_OP(ISINF, "IsInf")
