/* Pooling: MaxPool (with Indices), AveragePool, LpPool and their Global forms. */
#include <math.h>

#include "ops/nn-util.h"

typedef enum { POOL_MAX, POOL_AVG, POOL_LP } pool_kind;

static pool_kind kind_of(const glow_node *n) {
  return n->op == GLOW_OP_MAX_POOL || n->op == GLOW_OP_GLOBAL_MAX_POOL ? POOL_MAX
         : n->op == GLOW_OP_LP_POOL || n->op == GLOW_OP_GLOBAL_LP_POOL ? POOL_LP
                                                                       : POOL_AVG;
}

static int is_global(const glow_node *n) {
  return n->op == GLOW_OP_GLOBAL_MAX_POOL || n->op == GLOW_OP_GLOBAL_AVERAGE_POOL || n->op == GLOW_OP_GLOBAL_LP_POOL;
}

static int pool_dtype_ok(pool_kind k, glow_dtype dt) {
  /* int16: Int16 quantization's MaxPool (the max commutes with any quantization) */
  return dt == GLOW_DT_F32 || dt == GLOW_DT_F64 ||
         (k == POOL_MAX && (dt == GLOW_DT_U8 || dt == GLOW_DT_I8 || dt == GLOW_DT_I16));
}

/* Window of a local pool; a global pool is one window over all spatial axes. */
static int pool_get(const glow_graph *g, const glow_node *n, glow_nn_win *w) {
  const glow_value *x = glow_in(g, n, 0);
  pool_kind k = kind_of(n);
  if (!pool_dtype_ok(k, x->dt))
    return glow_node_error(g, n, "input type %s is not supported", glow_dtype_name(x->dt));
  if (k == POOL_LP && glow_attr_int(n, "p", 2) < 1)
    return glow_node_error(g, n, "p must be positive");
  if (is_global(n)) {
    if (x->rank < 3 || x->rank > 5)
      return glow_node_error(g, n, "input must have 1 to 3 spatial axes (rank 3 to 5)");
    w->nsp = x->rank - 2;
    for (int i = 0; i < w->nsp; i++) {
      w->in[i] = w->k[i] = x->dims[2 + i];
      w->out[i] = w->s[i] = w->d[i] = 1;
      w->pb[i] = w->pe[i] = 0;
    }
    return 0;
  }
  if (k == POOL_MAX && n->nout > 1 && n->out[1] >= 0) {
    int64_t so = glow_attr_int(n, "storage_order", 0);
    if (so != 0 && so != 1)
      return glow_node_error(g, n, "storage_order %lld is not supported", (long long)so);
  }
  return glow_nn_win_get(g, n, x, NULL, (int)glow_attr_int(n, "ceil_mode", 0), w);
}

static int infer_pool(glow_graph *g, glow_node *n) {
  glow_nn_win w;
  if (pool_get(g, n, &w))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  int64_t dims[5];
  glow_nn_win_out_dims(x, &w, dims);
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, dims);
  if (n->nout > 1 && n->out[1] >= 0)
    glow_value_set_shape(glow_out(g, n, 1), GLOW_DT_I64, x->rank, dims);
  return 0;
}

/* Reference: every output from the taps of its window that fall inside the
 * input (or, for count_include_pad, inside the padded input). */
static int eval_pool(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  glow_nn_win w;
  if (pool_get(g, n, &w))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  pool_kind kind = kind_of(n);
  int nsp = w.nsp, incl = (int)glow_attr_int(n, "count_include_pad", 0);
  int colmajor = (int)glow_attr_int(n, "storage_order", 0);
  double lp = (double)glow_attr_int(n, "p", 2);
  int isint = !glow_dtype_is_float(x->dt);
  int64_t isz = 1, osz = 1;
  for (int i = 0; i < nsp; i++) {
    isz *= w.in[i];
    osz *= w.out[i];
  }
  for (int64_t nc = 0; nc < x->dims[0] * x->dims[1]; nc++) {
    int64_t op[3] = {0};
    do {
      double acc = kind == POOL_MAX ? -INFINITY : 0;
      int64_t cnt = 0, arg = -1, kp[3] = {0};
      do {
        int64_t ip[3], in = 1, inpad = 1;
        for (int i = 0; i < nsp; i++) {
          ip[i] = op[i] * w.s[i] + kp[i] * w.d[i] - w.pb[i];
          in &= ip[i] >= 0 && ip[i] < w.in[i];
          inpad &= ip[i] >= -w.pb[i] && ip[i] < w.in[i] + w.pe[i];
        }
        cnt += incl ? inpad : in;
        if (!in)
          continue;
        int64_t xi = nc * isz + glow_nn_win_offset(nsp, w.in, ip);
        double v = isint ? (double)glow_elem_geti(x->dt, ins[0], xi) : glow_elem_get(x->dt, ins[0], xi);
        if (kind == POOL_MAX && (v > acc || arg < 0)) {
          acc = v;
          arg = 0;
          for (int i = colmajor ? nsp - 1 : 0; colmajor ? i >= 0 : i < nsp; i += colmajor ? -1 : 1)
            arg = arg * w.in[i] + ip[i];
          arg += nc * isz;
        } else if (kind == POOL_AVG) {
          acc += v;
        } else if (kind == POOL_LP) {
          acc += pow(fabs(v), lp);
        }
      } while (glow_nn_win_next(nsp, w.k, kp));
      if (kind == POOL_AVG)
        acc = cnt ? acc / (double)cnt : 0;
      else if (kind == POOL_LP)
        acc = pow(acc, 1 / lp);
      int64_t oi = nc * osz + glow_nn_win_offset(nsp, w.out, op);
      if (isint)
        glow_elem_seti(x->dt, outs[0], oi, (int64_t)acc);
      else
        glow_elem_set(x->dt, outs[0], oi, acc);
      if (kind == POOL_MAX && n->nout > 1 && outs[1])
        glow_elem_seti(GLOW_DT_I64, outs[1], oi, arg);
    } while (glow_nn_win_next(nsp, w.out, op));
  }
  return 0;
}

int glow_nn_pool_win(const glow_graph *g, const glow_node *n, glow_abi_win *a) {
  glow_nn_win w;
  if (is_global(n) || pool_get(g, n, &w))
    return -1;
  *a = glow_nn_win_abi(&w);
  return 0;
}

static int lower_pool(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_nn_win w;
  if (pool_get(g, n, &w))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  pool_kind kind = kind_of(n);
  int indices = kind == POOL_MAX && n->nout > 1 && n->out[1] >= 0;
  static const char *names[] = {"maxpool", "avgpool", "lppool"};
  glow_kcall_init(kc, "glow_k_%s%s_%s", names[kind], indices ? "_indices" : "", glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  if (indices)
    glow_kcall_tensor(kc, n->out[1]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_pool a = {.nc = x->dims[0] * x->dims[1], .w = glow_nn_win_abi(&w)};
  a.attr = kind == POOL_AVG ? glow_attr_int(n, "count_include_pad", 0)
           : kind == POOL_LP ? glow_attr_int(n, "p", 2)
                             : glow_attr_int(n, "storage_order", 0);
  glow_kcall_abi(kc, &a, kind == POOL_MAX && !indices ? offsetof(glow_abi_pool, attr) : offsetof(glow_abi_pool, sign));
  return 0;
}

const glow_op_info glow_op_MAX_POOL = {"MaxPool", 1, 1, 1, 2, infer_pool, eval_pool, lower_pool};
const glow_op_info glow_op_AVERAGE_POOL = {"AveragePool", 1, 1, 1, 1, infer_pool, eval_pool, lower_pool};
const glow_op_info glow_op_LP_POOL = {"LpPool", 1, 1, 1, 1, infer_pool, eval_pool, lower_pool};
const glow_op_info glow_op_GLOBAL_MAX_POOL = {"GlobalMaxPool", 1, 1, 1, 1, infer_pool, eval_pool, lower_pool};
const glow_op_info glow_op_GLOBAL_AVERAGE_POOL = {"GlobalAveragePool", 1, 1, 1, 1, infer_pool, eval_pool, lower_pool};
const glow_op_info glow_op_GLOBAL_LP_POOL = {"GlobalLpPool", 1, 1, 1, 1, infer_pool, eval_pool, lower_pool};
