/* Cast and CastLike between the numeric types and bool, and Where. */
#include <string.h>

#include "ops/elementwise-util.h"

#define CASTABLE (GLOW_EW_NUMERIC | GLOW_EW_BOOL)

/* Cast's `to`: a TensorProto.DataType number; before opset 6, a type name. */
static int cast_target(glow_graph *g, glow_node *n, glow_dtype *to) {
  static const struct {
    const char *name;
    glow_dtype dt;
  } names[] = {{"FLOAT", GLOW_DT_F32},  {"UINT8", GLOW_DT_U8},   {"INT8", GLOW_DT_I8},     {"UINT16", GLOW_DT_U16},
               {"INT16", GLOW_DT_I16},  {"INT32", GLOW_DT_I32},  {"INT64", GLOW_DT_I64},   {"STRING", GLOW_DT_STRING},
               {"BOOL", GLOW_DT_BOOL},  {"FLOAT16", GLOW_DT_F16}, {"DOUBLE", GLOW_DT_F64}, {"UINT32", GLOW_DT_U32},
               {"UINT64", GLOW_DT_U64}, {"BFLOAT16", GLOW_DT_BF16}};
  const glow_attr *a = glow_attr_find(n, "to");
  int64_t v = -1;
  if (a && a->type == GLOW_ATTR_INT)
    v = a->i;
  else if (a && a->type == GLOW_ATTR_STRING)
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
      if (!strcmp(a->s, names[i].name))
        v = names[i].dt;
  if (!a)
    return glow_node_error(g, n, "attribute 'to' is missing");
  if (v == GLOW_DT_STRING)
    return glow_node_error(g, n, "casting to string is not supported");
  if (v < 0 || v >= 32 || !(CASTABLE & GLOW_EW_BIT(v))) {
    static const char *const other[] = {[14] = "complex64", [15] = "complex128", [17] = "float8e4m3fn",
                                        [18] = "float8e4m3fnuz", [19] = "float8e5m2", [20] = "float8e5m2fnuz",
                                        [21] = "uint4", [22] = "int4"};
    const char *name = a->type == GLOW_ATTR_STRING ? a->s
                       : v >= 14 && v <= 22 && other[v] ? other[v] : "unknown";
    return glow_node_error(g, n, "cast to type %s (%lld) is not supported (numeric types and bool only)", name,
                           (long long)v);
  }
  *to = (glow_dtype)v;
  return 0;
}

static int infer_cast(glow_graph *g, glow_node *n) {
  glow_dtype to = GLOW_DT_UNDEF;
  const glow_value *x = glow_in(g, n, 0);
  if (n->op == GLOW_OP_CASTLIKE) {
    if (glow_ew_check_type(g, n, 1, CASTABLE))
      return -1;
    to = glow_in(g, n, 1)->dt;
  } else if (cast_target(g, n, &to)) {
    return -1;
  }
  if (glow_ew_check_type(g, n, 0, CASTABLE))
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), to, x->rank, x->dims);
  return 0;
}

/* Float to integer truncates; out of range is undefined in ONNX: here it saturates, NaN gives 0. */
static void set_from_double(glow_dtype dt, void *p, int64_t i, double v) {
  if (glow_dtype_is_float(dt) || dt == GLOW_DT_BOOL)
    glow_elem_set(dt, p, i, v);
  else if (dt == GLOW_DT_U64 && v >= 9223372036854775808.0)
    glow_elem_set(dt, p, i, v < 18446744073709551616.0 ? v : 18446744073709551615.0);
  else if (v != v)
    glow_elem_seti(dt, p, i, 0);
  else
    glow_elem_seti(dt, p, i, v >= 9223372036854775807.0 ? INT64_MAX : v <= -9223372036854775808.0 ? INT64_MIN : (int64_t)v);
}

static int eval_cast(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    if (glow_dtype_is_float(x->dt) || glow_dtype_is_float(o->dt))
      set_from_double(o->dt, outs[0], i, glow_elem_get(x->dt, ins[0], i));
    else /* integer to integer wraps, as C's conversion does */
      glow_elem_seti(o->dt, outs[0], i, glow_elem_geti(x->dt, ins[0], i));
  }
  return 0;
}

static int lower_cast(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  if (x->dt == o->dt)
    return glow_lower_copy(g, n, kc);
  glow_kcall_init(kc, "glow_k_cast_%s_%s", glow_dtype_suffix(x->dt), glow_dtype_suffix(o->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_count a = {.n = glow_value_numel(o)};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

static int infer_where(glow_graph *g, glow_node *n) {
  if (glow_ew_check_type(g, n, 0, GLOW_EW_BOOL) || glow_ew_check_type(g, n, 1, CASTABLE))
    return -1;
  if (glow_in(g, n, 2)->dt != glow_in(g, n, 1)->dt)
    return glow_node_error(g, n, "X and Y types differ: %s and %s", glow_dtype_name(glow_in(g, n, 1)->dt),
                           glow_dtype_name(glow_in(g, n, 2)->dt));
  return glow_ew_infer_broadcast(g, n, glow_in(g, n, 1)->dt);
}

static int eval_where(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *o = glow_out(g, n, 0);
  size_t sz = glow_dtype_size(o->dt);
  glow_ew_iter it;
  glow_ew_iter_init(&it, g, n, 0, 3);
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++, glow_ew_iter_next(&it)) {
    int pick = ((const uint8_t *)ins[0])[it.off[0]] ? 1 : 2;
    memcpy((char *)outs[0] + (size_t)i * sz, (const char *)ins[pick] + (size_t)it.off[pick] * sz, sz);
  }
  return 0;
}

static int lower_where(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_kcall_init(kc, "glow_k_where_%u", 8 * (unsigned)glow_dtype_size(glow_out(g, n, 0)->dt));
  return glow_ew_lower_bcast(g, n, kc, 0, 3);
}

const glow_op_info glow_op_CAST = {"Cast", 1, 1, 1, 1, infer_cast, eval_cast, lower_cast};
const glow_op_info glow_op_CASTLIKE = {"CastLike", 2, 2, 1, 1, infer_cast, eval_cast, lower_cast};
const glow_op_info glow_op_WHERE = {"Where", 3, 3, 1, 1, infer_where, eval_where, lower_where};
