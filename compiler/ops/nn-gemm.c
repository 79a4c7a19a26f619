/* Gemm: Y = alpha * op(A) * op(B) + beta * C, C broadcast to [M, N]. */
#include "ops/op-util.h"

typedef struct {
  int64_t M, N, K, ta, tb, csm, csn;
  double alpha, beta;
} gemm_dims;

static int gemm_get(const glow_graph *g, const glow_node *n, gemm_dims *d) {
  const glow_value *a = glow_in(g, n, 0), *b = glow_in(g, n, 1), *c = glow_in(g, n, 2);
  if (a->rank != 2 || b->rank != 2)
    return glow_node_error(g, n, "A and B must be 2-D (got ranks %d and %d)", a->rank, b->rank);
  d->ta = glow_attr_int(n, "transA", 0);
  d->tb = glow_attr_int(n, "transB", 0);
  d->alpha = glow_attr_float(n, "alpha", 1.0);
  d->beta = glow_attr_float(n, "beta", 1.0);
  d->M = d->ta ? a->dims[1] : a->dims[0];
  d->K = d->ta ? a->dims[0] : a->dims[1];
  d->N = d->tb ? b->dims[0] : b->dims[1];
  int64_t kb = d->tb ? b->dims[1] : b->dims[0];
  if (kb != d->K)
    return glow_node_error(g, n, "inner dimensions differ: A gives K=%lld, B gives K=%lld", (long long)d->K,
                           (long long)kb);
  d->csm = d->csn = 0;
  if (c) {
    int64_t cd[2] = {1, 1};
    if (c->rank > 2)
      return glow_node_error(g, n, "C must have rank <= 2");
    for (int i = 0; i < c->rank; i++)
      cd[2 - c->rank + i] = c->dims[i];
    if ((cd[0] != 1 && cd[0] != d->M) || (cd[1] != 1 && cd[1] != d->N))
      return glow_node_error(g, n, "C cannot be broadcast to [%lld,%lld]", (long long)d->M, (long long)d->N);
    d->csm = cd[0] == 1 ? 0 : cd[1];
    d->csn = cd[1] == 1 ? 0 : 1;
  }
  return 0;
}

static int infer_gemm(glow_graph *g, glow_node *n) {
  gemm_dims d;
  if (gemm_get(g, n, &d))
    return -1;
  const glow_value *a = glow_in(g, n, 0);
  if (!glow_dtype_is_float(a->dt))
    return glow_node_error(g, n, "input type %s is not supported", glow_dtype_name(a->dt));
  int64_t od[2] = {d.M, d.N};
  glow_value_set_shape(glow_out(g, n, 0), a->dt, 2, od);
  return 0;
}

static int eval_gemm(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  gemm_dims d;
  if (gemm_get(g, n, &d))
    return -1;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  for (int64_t m = 0; m < d.M; m++)
    for (int64_t j = 0; j < d.N; j++) {
      double acc = 0;
      for (int64_t k = 0; k < d.K; k++)
        acc += glow_elem_get(dt, ins[0], d.ta ? k * d.M + m : m * d.K + k) *
               glow_elem_get(dt, ins[1], d.tb ? j * d.K + k : k * d.N + j);
      double c = ins[2] ? glow_elem_get(dt, ins[2], m * d.csm + j * d.csn) : 0;
      glow_elem_set(dt, outs[0], m * d.N + j, d.alpha * acc + d.beta * c);
    }
  return 0;
}

static int lower_gemm(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  gemm_dims d;
  if (gemm_get(g, n, &d))
    return -1;
  if (glow_in(g, n, 0)->dt != GLOW_DT_F32)
    return glow_node_error(g, n, "no kernel for type %s", glow_dtype_name(glow_in(g, n, 0)->dt));
  glow_kcall_init(kc, "glow_k_gemm_f32");
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 3; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  int64_t p[] = {d.M, d.N, d.K, d.ta, d.tb, glow_f2p(d.alpha), glow_f2p(d.beta), d.csm, d.csn};
  glow_kcall_params(kc, 9, p);
  return 0;
}

const glow_op_info glow_op_GEMM = {"Gemm", 2, 3, 1, 1, infer_gemm, eval_gemm, lower_gemm};
