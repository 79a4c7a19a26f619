/* Shape, Size, ConstantOfShape, Range, EyeLike, Trilu, NonZero: outputs made from
 * shapes and constants. Shape and Size depend only on the (static) input
 * shape, so they are evaluated during inference even when their input is
 * computed at run time: shape subgraphs then fold to constants. NonZero
 * needs a constant input, its output shape depending on the values. */
#include <math.h>
#include <string.h>

#include "ops/tensor-util.h"

/* Evaluates a node whose outputs are known from shapes alone; its outputs become constants. */
static int fold_now(glow_graph *g, glow_node *n) { return glow_interp_fold_node(g, (int)(n - g->nodes)); }

static int lower_folded(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  (void)kc;
  return glow_node_error(g, n, "internal error: this node should have been evaluated at compile time");
}

/* ---- Shape (start, end: opset 15) ---- */

static void shape_range(const glow_node *n, int rank, int64_t *start, int64_t *end) {
  int64_t s = glow_attr_int(n, "start", 0), e = glow_attr_int(n, "end", rank);
  s = s < 0 ? s + rank : s;
  e = e < 0 ? e + rank : e;
  *start = s < 0 ? 0 : s > rank ? rank : s;
  *end = e < 0 ? 0 : e > rank ? rank : e;
}

static int infer_shape(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t s, e;
  shape_range(n, x->rank, &s, &e);
  int64_t len = e > s ? e - s : 0;
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_I64, 1, &len);
  return fold_now(g, n);
}

static int eval_shape(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t s, e;
  (void)ins;
  shape_range(n, x->rank, &s, &e);
  for (int64_t d = s; d < e; d++)
    ((int64_t *)outs[0])[d - s] = x->dims[d];
  return 0;
}

const glow_op_info glow_op_SHAPE = {"Shape", 1, 1, 1, 1, infer_shape, eval_shape, lower_folded};

/* ---- Size ---- */

static int infer_size(glow_graph *g, glow_node *n) {
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_I64, 0, NULL);
  return fold_now(g, n);
}

static int eval_size(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  (void)ins;
  *(int64_t *)outs[0] = glow_value_numel(glow_in(g, n, 0));
  return 0;
}

const glow_op_info glow_op_SIZE = {"Size", 1, 1, 1, 1, infer_size, eval_size, lower_folded};

/* ---- ConstantOfShape ---- */

/* The fill element: the `value` attribute (one element) or float 0. */
static int cos_value(const glow_graph *g, const glow_node *n, glow_dtype *dt, const void **data) {
  static const float zero = 0.0f;
  const glow_attr *a = glow_attr_find(n, "value");
  *dt = GLOW_DT_F32;
  *data = &zero;
  if (!a)
    return 0;
  const glow_value *v = a->type == GLOW_ATTR_TENSOR && a->t_value >= 0 ? &g->vals[a->t_value] : NULL;
  if (!v || glow_value_numel(v) != 1)
    return glow_node_error(g, n, "value must be a tensor of one element");
  *dt = v->dt;
  *data = v->data;
  return 0;
}

static int infer_cos(glow_graph *g, glow_node *n) {
  int64_t dims[GLOW_MAX_RANK];
  glow_dtype dt;
  const void *data;
  int r = glow_need_const_ints(g, n, 0, "the output shape", dims, GLOW_MAX_RANK);
  if (r < 0 || cos_value(g, n, &dt, &data))
    return -1;
  for (int d = 0; d < r; d++)
    if (dims[d] < 0)
      return glow_node_error(g, n, "negative dimension %lld", (long long)dims[d]);
  glow_value_set_shape(glow_out(g, n, 0), dt, r, dims);
  return glow_t_check_movable(g, n, glow_out(g, n, 0));
}

static int eval_cos(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *o = glow_out(g, n, 0);
  glow_dtype dt;
  const void *data;
  (void)ins;
  if (cos_value(g, n, &dt, &data))
    return -1;
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++)
    glow_t_copy_elem(dt, outs[0], i, data, 0);
  return 0;
}

static int lower_cos(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *o = glow_out(g, n, 0);
  glow_dtype dt;
  const void *data;
  if (cos_value(g, n, &dt, &data))
    return -1;
  glow_t_kcall_by_size(kc, "fill", o->dt);
  glow_kcall_tensor(kc, n->out[0]);
  glow_abi_fill a = {.n = glow_value_numel(o), .bits = (int64_t)glow_t_raw_bits(dt, data)};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_CONSTANT_OF_SHAPE = {"ConstantOfShape", 1, 1, 1, 1, infer_cos, eval_cos, lower_cos};

/* ---- Range (start, limit, delta are constants: they decide the length) ---- */

typedef struct {
  int64_t count;
  double start, delta;    /* float types */
  int64_t istart, idelta; /* integer types */
} range_plan;

static int range_get(const glow_graph *g, const glow_node *n, range_plan *r) {
  const glow_value *x = glow_in(g, n, 0);
  static const char *what[3] = {"start", "limit", "delta"};
  for (int i = 0; i < 3; i++)
    if (glow_in(g, n, i)->dt != x->dt || glow_value_numel(glow_in(g, n, i)) != 1)
      return glow_node_error(g, n, "%s must be a scalar of the type of start", what[i]);
  if (x->dt != GLOW_DT_F32 && x->dt != GLOW_DT_F64 && x->dt != GLOW_DT_I16 && x->dt != GLOW_DT_I32 &&
      x->dt != GLOW_DT_I64)
    return glow_node_error(g, n, "type %s is not supported", glow_dtype_name(x->dt));
  if (glow_dtype_is_float(x->dt)) {
    double v[3];
    for (int i = 0; i < 3; i++)
      if (glow_t_need_const_nums(g, n, i, what[i], &v[i], 1) != 1)
        return -1;
    if (v[2] == 0 || !isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
      return glow_node_error(g, n, "start, limit and delta must be finite and delta not 0");
    /* the count in the input's own precision, as a runtime computing in that type would */
    double c = x->dt == GLOW_DT_F32 ? ceilf(((float)v[1] - (float)v[0]) / (float)v[2]) : ceil((v[1] - v[0]) / v[2]);
    if (c > 1e9)
      return glow_node_error(g, n, "the output would have %g elements", c);
    r->count = c > 0 ? (int64_t)c : 0;
    r->start = v[0];
    r->delta = v[2];
    return 0;
  }
  int64_t v[3];
  for (int i = 0; i < 3; i++)
    if (glow_need_const_ints(g, n, i, what[i], &v[i], 1) != 1)
      return -1;
  if (v[2] == 0)
    return glow_node_error(g, n, "delta must not be 0");
  double span = ((double)v[1] - (double)v[0]) / (double)v[2];
  if (span > 1e9)
    return glow_node_error(g, n, "the output would have %g elements", span);
  int64_t d = v[2] > 0 ? v[1] - v[0] : v[0] - v[1], step = v[2] > 0 ? v[2] : -v[2];
  r->count = d > 0 ? (d + step - 1) / step : 0;
  r->istart = v[0];
  r->idelta = v[2];
  return 0;
}

static int infer_range(glow_graph *g, glow_node *n) {
  range_plan r;
  if (range_get(g, n, &r))
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), glow_in(g, n, 0)->dt, 1, &r.count);
  return 0;
}

static int eval_range(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  range_plan r;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  (void)ins;
  if (range_get(g, n, &r))
    return -1;
  for (int64_t i = 0; i < r.count; i++) {
    if (glow_dtype_is_float(dt))
      glow_elem_set(dt, outs[0], i, r.start + (double)i * r.delta);
    else
      glow_elem_seti(dt, outs[0], i, r.istart + i * r.idelta);
  }
  return 0;
}

static int lower_range(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  range_plan r;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  if (range_get(g, n, &r))
    return -1;
  glow_kcall_init(kc, "glow_k_range_%s", glow_dtype_suffix(dt));
  glow_kcall_tensor(kc, n->out[0]);
  int f = glow_dtype_is_float(dt);
  glow_abi_range a = {.n = r.count, .start = f ? glow_f2p(r.start) : r.istart,
                      .delta = f ? glow_f2p(r.delta) : r.idelta};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_RANGE = {"Range", 3, 3, 1, 1, infer_range, eval_range, lower_range};

/* ---- EyeLike ---- */

static int infer_eyelike(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  glow_dtype dt = (glow_dtype)glow_attr_int(n, "dtype", x->dt);
  if (x->rank != 2)
    return glow_node_error(g, n, "the input must be 2-D, not rank %d", x->rank);
  if (dt <= GLOW_DT_UNDEF || dt >= GLOW_DT_COUNT || !glow_dtype_size(dt))
    return glow_node_error(g, n, "dtype %d is not supported", (int)dt);
  glow_value_set_shape(glow_out(g, n, 0), dt, 2, x->dims);
  return glow_t_check_movable(g, n, glow_out(g, n, 0));
}

static int eval_eyelike(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *o = glow_out(g, n, 0);
  int64_t k = glow_attr_int(n, "k", 0);
  (void)ins;
  for (int64_t i = 0; i < o->dims[0]; i++)
    for (int64_t j = 0; j < o->dims[1]; j++)
      glow_elem_seti(o->dt, outs[0], i * o->dims[1] + j, j - i == k);
  return 0;
}

static int lower_eyelike(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *o = glow_out(g, n, 0);
  glow_t_kcall_by_size(kc, "eyelike", o->dt);
  glow_kcall_tensor(kc, n->out[0]);
  glow_abi_eyelike a = {.rows = o->dims[0], .cols = o->dims[1], .k = glow_attr_int(n, "k", 0),
                        .one = (int64_t)glow_t_bits_of(o->dt, 1.0)};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_EYE_LIKE = {"EyeLike", 1, 1, 1, 1, infer_eyelike, eval_eyelike, lower_eyelike};

/* ---- Trilu (k is read at run time) ---- */

static int infer_trilu(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0), *k = glow_in(g, n, 1);
  if (x->rank < 2)
    return glow_node_error(g, n, "the input must have rank >= 2");
  if (k && (k->dt != GLOW_DT_I64 || glow_value_numel(k) != 1))
    return glow_node_error(g, n, "k must be an int64 scalar");
  if (glow_t_check_movable(g, n, x))
    return -1;
  return glow_infer_same_as_input(g, n);
}

static int eval_trilu(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t rows = x->dims[x->rank - 2], cols = x->dims[x->rank - 1], k = glow_in(g, n, 1) ? *(const int64_t *)ins[1] : 0;
  int upper = glow_attr_int(n, "upper", 1) != 0;
  for (int64_t i = 0, e = glow_value_numel(x); i < e; i++) {
    int64_t r = i / cols % rows, c = i % cols;
    int keep = upper ? c - r >= k : c - r <= k;
    if (keep)
      glow_t_copy_elem(x->dt, outs[0], i, ins[0], i);
    else
      memset((char *)outs[0] + (size_t)i * glow_dtype_size(x->dt), 0, glow_dtype_size(x->dt));
  }
  return 0;
}

static int lower_trilu(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t rows = x->dims[x->rank - 2], cols = x->dims[x->rank - 1];
  glow_t_kcall_by_size(kc, "trilu", x->dt);
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, n->nin > 1 ? n->in[1] : -1);
  int64_t batch = rows && cols ? glow_value_numel(x) / (rows * cols) : 0;
  glow_abi_trilu a = {.batch = batch, .rows = rows, .cols = cols, .upper = glow_attr_int(n, "upper", 1) != 0};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_TRILU = {"Trilu", 1, 2, 1, 1, infer_trilu, eval_trilu, lower_trilu};

/* ---- NonZero (its output shape depends on the input's values: the input must be a constant) ---- */

static int64_t nonzero_count(const glow_value *x, const void *data) {
  int64_t k = 0;
  for (int64_t i = 0, e = glow_value_numel(x); i < e; i++)
    k += glow_elem_get(x->dt, data, i) != 0;
  return k;
}

static int infer_nonzero(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  if (x->kind != GLOW_VAL_CONST) {
    int64_t unused[1];
    glow_need_const_ints(g, n, 0, "the data: NonZero's output shape depends on its values", unused, 0);
    return -1;
  }
  if (x->rank == 0 || glow_dtype_size(x->dt) == 0 || x->dt == GLOW_DT_STRING)
    return glow_node_error(g, n, "the input must be a numeric tensor of rank >= 1");
  int64_t dims[2] = {x->rank, nonzero_count(x, x->data)};
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_I64, 2, dims);
  return fold_now(g, n);
}

static int eval_nonzero(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t count = nonzero_count(x, ins[0]), c[GLOW_MAX_RANK], k = 0;
  for (int64_t i = 0, e = glow_value_numel(x); i < e; i++) {
    if (glow_elem_get(x->dt, ins[0], i) == 0)
      continue;
    glow_t_unravel(i, x->rank, x->dims, c);
    for (int d = 0; d < x->rank; d++)
      ((int64_t *)outs[0])[d * count + k] = c[d];
    k++;
  }
  return 0;
}

const glow_op_info glow_op_NON_ZERO = {"NonZero", 1, 1, 1, 1, infer_nonzero, eval_nonzero, lower_folded};
