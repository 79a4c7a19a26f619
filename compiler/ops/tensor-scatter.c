/* ScatterElements (and its old name Scatter), ScatterND: the output is the
 * data with elements replaced (or combined, by `reduction`) at runtime
 * indices. Updates whose index is out of range are skipped. */
#include <string.h>

#include "ops/tensor-util.h"

enum { RED_NONE, RED_ADD, RED_MUL, RED_MAX, RED_MIN };

static int reduction_get(const glow_graph *g, const glow_node *n) {
  const char *r = glow_attr_string(n, "reduction", "none");
  int red = !strcmp(r, "none")  ? RED_NONE
            : !strcmp(r, "add") ? RED_ADD
            : !strcmp(r, "mul") ? RED_MUL
            : !strcmp(r, "max") ? RED_MAX
            : !strcmp(r, "min") ? RED_MIN
                                : -1;
  if (red < 0)
    return glow_node_error(g, n, "reduction '%s' is not supported", r);
  const glow_value *x = glow_in(g, n, 0);
  if (red != RED_NONE && !(x->dt == GLOW_DT_F32 || x->dt == GLOW_DT_F64 || glow_dtype_is_signed_int(x->dt) ||
                           glow_dtype_is_unsigned_int(x->dt)))
    return glow_node_error(g, n, "reduction '%s' on type %s is not supported", r, glow_dtype_name(x->dt));
  return red;
}

static int check_inputs(const glow_graph *g, const glow_node *n) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1), *u = glow_in(g, n, 2);
  if (glow_t_check_movable(g, n, x))
    return -1;
  if (iv->dt != GLOW_DT_I32 && iv->dt != GLOW_DT_I64)
    return glow_node_error(g, n, "indices of type %s are not supported (int32 or int64)", glow_dtype_name(iv->dt));
  if (u->dt != x->dt)
    return glow_node_error(g, n, "updates (%s) and data (%s) differ in type", glow_dtype_name(u->dt),
                           glow_dtype_name(x->dt));
  return reduction_get(g, n) < 0 ? -1 : 0;
}

static int64_t index_at(const glow_value *iv, const void *p, int64_t i, int64_t n) {
  int64_t k = glow_elem_geti(iv->dt, p, i);
  if (k < 0)
    k += n;
  return k >= 0 && k < n ? k : -1;
}

/* out[oi] = out[oi] (reduction) upd[ui], in double for floats and int64 for integers. */
static void combine(glow_dtype dt, int red, void *out, int64_t oi, const void *upd, int64_t ui) {
  if (red == RED_NONE) {
    glow_t_copy_elem(dt, out, oi, upd, ui);
  } else if (glow_dtype_is_float(dt)) {
    double a = glow_elem_get(dt, out, oi), b = glow_elem_get(dt, upd, ui);
    double r = red == RED_ADD ? a + b : red == RED_MUL ? a * b : red == RED_MAX ? (a > b ? a : b) : (a < b ? a : b);
    glow_elem_set(dt, out, oi, r);
  } else {
    int64_t a = glow_elem_geti(dt, out, oi), b = glow_elem_geti(dt, upd, ui);
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b; /* wrap like the kernel's fixed-width arithmetic */
    int64_t r = red == RED_ADD   ? (int64_t)(ua + ub)
                : red == RED_MUL ? (int64_t)(ua * ub)
                : red == RED_MAX ? (glow_dtype_is_unsigned_int(dt) ? (ua > ub ? a : b) : (a > b ? a : b))
                                 : (glow_dtype_is_unsigned_int(dt) ? (ua < ub ? a : b) : (a < b ? a : b));
    glow_elem_seti(dt, out, oi, r);
  }
}

/* The kernel: by element size without a reduction, by dtype with one. */
static void scatter_kcall(const glow_graph *g, const glow_node *n, glow_kcall *kc, const char *base, int red) {
  const glow_value *x = glow_in(g, n, 0);
  if (red == RED_NONE)
    glow_t_kcall_by_size(kc, base, x->dt);
  else
    glow_kcall_init(kc, "glow_k_%s_%s", base, glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 3; i++)
    glow_kcall_tensor(kc, n->in[i]);
}

/* ---- ScatterElements, Scatter ---- */

static int infer_scatter_elements(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1), *u = glow_in(g, n, 2);
  if (check_inputs(g, n))
    return -1;
  int axis = glow_norm_axis(g, n, glow_attr_int(n, "axis", 0), x->rank);
  if (axis < 0)
    return -1;
  if (iv->rank != x->rank || u->rank != x->rank)
    return glow_node_error(g, n, "data, indices and updates must have the same rank");
  for (int d = 0; d < x->rank; d++) {
    if (iv->dims[d] != u->dims[d])
      return glow_node_error(g, n, "indices and updates differ in shape");
    if (d != axis && iv->dims[d] > x->dims[d])
      return glow_node_error(g, n, "indices dimension %d (%lld) exceeds data's (%lld)", d, (long long)iv->dims[d],
                             (long long)x->dims[d]);
  }
  return glow_infer_same_as_input(g, n);
}

static int eval_scatter_elements(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  int axis = glow_norm_axis(g, n, glow_attr_int(n, "axis", 0), x->rank), red = reduction_get(g, n);
  int64_t c[GLOW_MAX_RANK];
  memcpy(outs[0], ins[0], glow_value_bytes(x));
  for (int64_t i = 0, e = glow_value_numel(iv); i < e; i++) {
    glow_t_unravel(i, iv->rank, iv->dims, c);
    c[axis] = index_at(iv, ins[1], i, x->dims[axis]);
    if (c[axis] < 0)
      continue;
    int64_t oi = 0;
    for (int d = 0; d < x->rank; d++)
      oi = oi * x->dims[d] + c[d];
    combine(x->dt, red, outs[0], oi, ins[2], i);
  }
  return 0;
}

static int lower_scatter_elements(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  int axis = glow_norm_axis(g, n, glow_attr_int(n, "axis", 0), x->rank), red = reduction_get(g, n);
  if (axis < 0 || red < 0)
    return -1;
  scatter_kcall(g, n, kc, "scatter_elements", red);
  glow_abi_scatter_elements a = {.r = x->rank, .axis = axis, .idt = iv->dt, .red = red};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, x->rank, iv->dims);
  glow_kcall_params(kc, x->rank, x->dims);
  return 0;
}

const glow_op_info glow_op_SCATTER_ELEMENTS = {
    "ScatterElements", 3, 3, 1, 1, infer_scatter_elements, eval_scatter_elements, lower_scatter_elements};
const glow_op_info glow_op_SCATTER = {
    "Scatter", 3, 3, 1, 1, infer_scatter_elements, eval_scatter_elements, lower_scatter_elements};

/* ---- ScatterND ---- */

typedef struct {
  int k;        /* length of an index tuple */
  int64_t N, S; /* tuples; elements per updated slice */
} snd_plan;

static int snd_get(const glow_graph *g, const glow_node *n, snd_plan *p) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1), *u = glow_in(g, n, 2);
  if (iv->rank < 1 || x->rank < 1)
    return glow_node_error(g, n, "data and indices must have rank >= 1");
  int64_t k = iv->dims[iv->rank - 1];
  if (k < 1 || k > x->rank)
    return glow_node_error(g, n, "index tuples of length %lld do not fit data of rank %d", (long long)k, x->rank);
  p->k = (int)k;
  int ur = iv->rank - 1 + x->rank - p->k;
  int ok = u->rank == ur;
  for (int d = 0; ok && d < ur; d++)
    ok = u->dims[d] == (d < iv->rank - 1 ? iv->dims[d] : x->dims[d - (iv->rank - 1) + p->k]);
  if (!ok)
    return glow_node_error(g, n, "updates must have shape indices.shape[:-1] + data.shape[k:]");
  p->N = 1;
  for (int d = 0; d < iv->rank - 1; d++)
    p->N *= iv->dims[d];
  p->S = 1;
  for (int d = p->k; d < x->rank; d++)
    p->S *= x->dims[d];
  return 0;
}

static int infer_scatter_nd(glow_graph *g, glow_node *n) {
  snd_plan p;
  if (check_inputs(g, n) || snd_get(g, n, &p))
    return -1;
  return glow_infer_same_as_input(g, n);
}

static int eval_scatter_nd(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  int red = reduction_get(g, n);
  snd_plan p;
  if (snd_get(g, n, &p))
    return -1;
  memcpy(outs[0], ins[0], glow_value_bytes(x));
  for (int64_t j = 0; j < p.N; j++) {
    int64_t oi = 0, ok = 1;
    for (int m = 0; m < p.k; m++) {
      int64_t ix = index_at(iv, ins[1], j * p.k + m, x->dims[m]);
      ok &= ix >= 0;
      oi = oi * x->dims[m] + (ix < 0 ? 0 : ix);
    }
    for (int64_t s = 0; ok && s < p.S; s++)
      combine(x->dt, red, outs[0], oi * p.S + s, ins[2], j * p.S + s);
  }
  return 0;
}

static int lower_scatter_nd(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  int red = reduction_get(g, n);
  snd_plan p;
  int64_t xs[GLOW_MAX_RANK];
  if (red < 0 || snd_get(g, n, &p))
    return -1;
  glow_dense_strides(x->rank, x->dims, xs);
  scatter_kcall(g, n, kc, "scatter_nd", red);
  glow_abi_scatter_nd a = {.numel = glow_value_numel(x), .N = p.N, .K = p.k, .S = p.S, .idt = iv->dt, .red = red};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, p.k, x->dims);
  glow_kcall_params(kc, p.k, xs);
  return 0;
}

const glow_op_info glow_op_SCATTER_ND = {"ScatterND", 3, 3, 1, 1, infer_scatter_nd, eval_scatter_nd, lower_scatter_nd};
