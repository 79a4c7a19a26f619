/* ArgMax, ArgMin: int64 index of the first (or with select_last_index, the last) extreme along one axis. */
#include "ops/op-util.h"

typedef struct {
  int64_t outer, len, inner, last;
} arg_dims;

static int arg_get(const glow_graph *g, const glow_node *n, arg_dims *d) {
  const glow_value *x = glow_in(g, n, 0);
  int axis = glow_norm_axis(g, n, glow_attr_int(n, "axis", 0), x->rank);
  if (axis < 0)
    return -1;
  if (x->rank == 0)
    return glow_node_error(g, n, "the input must have rank >= 1");
  d->outer = d->inner = 1;
  d->len = x->dims[axis];
  for (int i = 0; i < x->rank; i++)
    if (i < axis)
      d->outer *= x->dims[i];
    else if (i > axis)
      d->inner *= x->dims[i];
  if (d->len == 0 && d->outer * d->inner != 0)
    return glow_node_error(g, n, "cannot take %s over an empty axis", glow_op_get(n->op)->onnx_name);
  d->last = glow_attr_int(n, "select_last_index", 0) != 0;
  return axis;
}

static int infer_arg(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  arg_dims d;
  if (x->dt == GLOW_DT_BOOL || x->dt == GLOW_DT_STRING)
    return glow_node_error(g, n, "input type %s is not supported", glow_dtype_name(x->dt));
  int axis = arg_get(g, n, &d);
  if (axis < 0)
    return -1;
  int keep = glow_attr_int(n, "keepdims", 1) != 0, r = 0;
  int64_t dims[GLOW_MAX_RANK];
  for (int i = 0; i < x->rank; i++)
    if (i != axis)
      dims[r++] = x->dims[i];
    else if (keep)
      dims[r++] = 1;
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_I64, r, dims);
  return 0;
}

static int eval_arg(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  arg_dims d;
  if (arg_get(g, n, &d) < 0)
    return -1;
  int is_max = n->op == GLOW_OP_ARGMAX, fl = glow_dtype_is_float(x->dt), uns = glow_dtype_is_unsigned_int(x->dt);
  for (int64_t a = 0; a < d.outer; a++)
    for (int64_t c = 0; c < d.inner; c++) {
      int64_t base = a * d.len * d.inner + c, best = 0;
      for (int64_t k = 1; k < d.len; k++) {
        int64_t i = base + k * d.inner, b = base + best * d.inner, cmp;
        if (fl) {
          double v = glow_elem_get(x->dt, ins[0], i), w = glow_elem_get(x->dt, ins[0], b);
          cmp = (v > w) - (v < w);
        } else if (uns) {
          uint64_t v = (uint64_t)glow_elem_geti(x->dt, ins[0], i), w = (uint64_t)glow_elem_geti(x->dt, ins[0], b);
          cmp = (v > w) - (v < w);
        } else {
          int64_t v = glow_elem_geti(x->dt, ins[0], i), w = glow_elem_geti(x->dt, ins[0], b);
          cmp = (v > w) - (v < w);
        }
        if (!is_max)
          cmp = -cmp;
        if (cmp > 0 || (cmp == 0 && d.last))
          best = k;
      }
      glow_elem_seti(GLOW_DT_I64, outs[0], a * d.inner + c, best);
    }
  return 0;
}

static int lower_arg(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  arg_dims d;
  if (arg_get(g, n, &d) < 0)
    return -1;
  switch (x->dt) {
  case GLOW_DT_F32:
  case GLOW_DT_F64:
  case GLOW_DT_I8:
  case GLOW_DT_U8:
  case GLOW_DT_I16:
  case GLOW_DT_U16:
  case GLOW_DT_I32:
  case GLOW_DT_U32:
  case GLOW_DT_I64:
  case GLOW_DT_U64: break;
  default: return glow_node_error(g, n, "no %s kernel for type %s", glow_op_get(n->op)->onnx_name,
                                  glow_dtype_name(x->dt));
  }
  glow_kcall_init(kc, "glow_k_%s_%s", n->op == GLOW_OP_ARGMAX ? "argmax" : "argmin", glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_argmax a = {.outer = d.outer, .len = d.len, .inner = d.inner, .last = d.last};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_ARGMAX = {"ArgMax", 1, 1, 1, 1, infer_arg, eval_arg, lower_arg};
const glow_op_info glow_op_ARGMIN = {"ArgMin", 1, 1, 1, 1, infer_arg, eval_arg, lower_arg};
