/* Normalizations: BatchNormalization (inference), InstanceNormalization,
 * LayerNormalization, LRN, MeanVarianceNormalization. */
#include <math.h>
#include <stdlib.h>

#include "ops/op-util.h"

static int need_float(const glow_graph *g, const glow_node *n) {
  glow_dtype dt = glow_in(g, n, 0)->dt;
  if (dt != GLOW_DT_F32 && dt != GLOW_DT_F64)
    return glow_node_error(g, n, "input type %s is not supported (float or double)", glow_dtype_name(dt));
  return 0;
}

/* Input i must be a vector of c elements of X's dtype. */
static int need_vec(const glow_graph *g, const glow_node *n, int i, const char *what, int64_t c) {
  const glow_value *v = glow_in(g, n, i);
  if (v->dt != glow_in(g, n, 0)->dt || v->rank != 1 || v->dims[0] != c)
    return glow_node_error(g, n, "%s must be a %s vector of %lld elements", what, glow_dtype_name(glow_in(g, n, 0)->dt),
                           (long long)c);
  return 0;
}

/* X as N x C x S (S: product of the axes after C). */
static void ncs(const glow_value *x, int64_t *N, int64_t *C, int64_t *S) {
  *N = x->dims[0];
  *C = x->rank > 1 ? x->dims[1] : 1;
  *S = 1;
  for (int i = 2; i < x->rank; i++)
    *S *= x->dims[i];
}

/* ---- BatchNormalization: y = (x - mean) / sqrt(var + eps) * scale + B ---- */

static int infer_batchnorm(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  if (need_float(g, n))
    return -1;
  if (glow_attr_int(n, "training_mode", 0))
    return glow_node_error(g, n, "training_mode=1 is not supported (inference only)");
  if (!glow_attr_int(n, "spatial", 1))
    return glow_node_error(g, n, "spatial=0 is not supported");
  for (int i = 1; i < n->nout; i++)
    if (n->out[i] >= 0)
      return glow_node_error(g, n, "the training outputs (running mean and variance) are not supported");
  if (x->rank < 2)
    return glow_node_error(g, n, "X must have rank 2 or more");
  static const char *names[] = {"", "scale", "B", "input_mean", "input_var"};
  for (int i = 1; i < 5; i++)
    if (need_vec(g, n, i, names[i], x->dims[1]))
      return -1;
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, x->dims);
  return 0;
}

static int eval_batchnorm(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t N, C, S;
  ncs(x, &N, &C, &S);
  double eps = glow_attr_float(n, "epsilon", 1e-5);
  for (int64_t a = 0; a < N; a++)
    for (int64_t c = 0; c < C; c++)
      for (int64_t s = 0; s < S; s++) {
        int64_t i = (a * C + c) * S + s;
        double v = (glow_elem_get(x->dt, ins[0], i) - glow_elem_get(x->dt, ins[3], c)) /
                   sqrt(glow_elem_get(x->dt, ins[4], c) + eps);
        glow_elem_set(x->dt, outs[0], i, v * glow_elem_get(x->dt, ins[1], c) + glow_elem_get(x->dt, ins[2], c));
      }
  return 0;
}

static int lower_batchnorm(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t N, C, S;
  ncs(x, &N, &C, &S);
  glow_kcall_init(kc, "glow_k_batchnorm_%s", glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 5; i++)
    glow_kcall_tensor(kc, n->in[i]);
  glow_abi_batchnorm a = {.N = N, .C = C, .S = S, .eps = glow_f2p(glow_attr_float(n, "epsilon", 1e-5))};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_BATCH_NORMALIZATION = {"BatchNormalization", 5, 5, 1, 5, infer_batchnorm, eval_batchnorm,
                                                  lower_batchnorm};

/* ---- InstanceNormalization: per (n, c) over the spatial axes ---- */

static int infer_instancenorm(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  if (need_float(g, n))
    return -1;
  if (x->rank < 3)
    return glow_node_error(g, n, "X must have rank 3 or more (N x C x D1 ...)");
  if (need_vec(g, n, 1, "scale", x->dims[1]) || need_vec(g, n, 2, "B", x->dims[1]))
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, x->dims);
  return 0;
}

/* Mean and biased variance of `len` elements at `base` + k * `stride`. */
static void moments(glow_dtype dt, const void *p, int64_t base, int64_t len, int64_t stride, double *mean,
                    double *var) {
  double s = 0, q = 0;
  for (int64_t k = 0; k < len; k++)
    s += glow_elem_get(dt, p, base + k * stride);
  *mean = s / (double)len;
  for (int64_t k = 0; k < len; k++) {
    double d = glow_elem_get(dt, p, base + k * stride) - *mean;
    q += d * d;
  }
  *var = q / (double)len;
}

static int eval_instancenorm(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t N, C, S;
  ncs(x, &N, &C, &S);
  double eps = glow_attr_float(n, "epsilon", 1e-5);
  for (int64_t a = 0; a < N; a++)
    for (int64_t c = 0; c < C; c++) {
      double mean, var, sc = glow_elem_get(x->dt, ins[1], c), b = glow_elem_get(x->dt, ins[2], c);
      int64_t base = (a * C + c) * S;
      moments(x->dt, ins[0], base, S, 1, &mean, &var);
      for (int64_t s = 0; s < S; s++)
        glow_elem_set(x->dt, outs[0], base + s,
                      (glow_elem_get(x->dt, ins[0], base + s) - mean) / sqrt(var + eps) * sc + b);
    }
  return 0;
}

static int lower_instancenorm(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t N, C, S;
  ncs(x, &N, &C, &S);
  glow_kcall_init(kc, "glow_k_instancenorm_%s", glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 3; i++)
    glow_kcall_tensor(kc, n->in[i]);
  glow_abi_instancenorm a = {.NC = N * C, .C = C, .S = S, .eps = glow_f2p(glow_attr_float(n, "epsilon", 1e-5))};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_INSTANCE_NORMALIZATION = {
    "InstanceNormalization", 3, 3, 1, 1, infer_instancenorm, eval_instancenorm, lower_instancenorm};

/* ---- LayerNormalization (opset 17): over the axes from `axis` on ---- */

typedef struct {
  int axis;
  int64_t outer, inner;
  int scale_scalar, bias_scalar; /* 1: one value broadcast; 0: one per normalized element */
} ln_shape;

static int ln_param(const glow_graph *g, const glow_node *n, int i, const char *what, const ln_shape *s, int *scalar) {
  const glow_value *x = glow_in(g, n, 0), *v = glow_in(g, n, i);
  *scalar = 0;
  if (!v)
    return 0;
  if (v->dt != x->dt)
    return glow_node_error(g, n, "%s must have X's type %s", what, glow_dtype_name(x->dt));
  if (glow_value_numel(v) == 1) {
    *scalar = 1;
    return 0;
  }
  /* Leading 1s aside, the shape must be X's normalized axes. */
  int lead = v->rank - (x->rank - s->axis);
  for (int d = 0; d < v->rank; d++)
    if (d < lead ? v->dims[d] != 1 : v->dims[d] != x->dims[s->axis + d - lead])
      return glow_node_error(g, n,
                             "%s must have the shape of X's axes %d.. (broadcasting within them is not "
                             "supported)",
                             what, s->axis);
  return lead < 0 ? glow_node_error(g, n, "%s has fewer elements than X's normalized axes", what) : 0;
}

static int ln_get(const glow_graph *g, const glow_node *n, ln_shape *s) {
  const glow_value *x = glow_in(g, n, 0);
  if (need_float(g, n))
    return -1;
  if (glow_attr_int(n, "stash_type", 1) != 1)
    return glow_node_error(g, n, "stash_type %lld is not supported (1: float)",
                           (long long)glow_attr_int(n, "stash_type", 1));
  if (x->rank < 1)
    return glow_node_error(g, n, "X must have rank 1 or more");
  s->axis = glow_norm_axis(g, n, glow_attr_int(n, "axis", -1), x->rank);
  if (s->axis < 0)
    return -1;
  s->outer = s->inner = 1;
  for (int d = 0; d < x->rank; d++)
    *(d < s->axis ? &s->outer : &s->inner) *= x->dims[d];
  return ln_param(g, n, 1, "Scale", s, &s->scale_scalar) || ln_param(g, n, 2, "B", s, &s->bias_scalar) ? -1 : 0;
}

static int infer_layernorm(glow_graph *g, glow_node *n) {
  ln_shape s;
  if (ln_get(g, n, &s))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, x->dims);
  int64_t d[GLOW_MAX_RANK];
  for (int i = 0; i < x->rank; i++)
    d[i] = i < s.axis ? x->dims[i] : 1;
  /* Mean and InvStdDev have the stash type (float). */
  for (int o = 1; o < 3; o++)
    if (glow_out(g, n, o))
      glow_value_set_shape(glow_out(g, n, o), GLOW_DT_F32, x->rank, d);
  return 0;
}

static int eval_layernorm(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  ln_shape s;
  if (ln_get(g, n, &s))
    return -1;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  double eps = glow_attr_float(n, "epsilon", 1e-5);
  for (int64_t a = 0; a < s.outer; a++) {
    double mean, var;
    moments(dt, ins[0], a * s.inner, s.inner, 1, &mean, &var);
    double inv = 1 / sqrt(var + eps);
    for (int64_t i = 0; i < s.inner; i++) {
      double v = (glow_elem_get(dt, ins[0], a * s.inner + i) - mean) * inv;
      v *= glow_elem_get(dt, ins[1], s.scale_scalar ? 0 : i);
      if (glow_in(g, n, 2))
        v += glow_elem_get(dt, ins[2], s.bias_scalar ? 0 : i);
      glow_elem_set(dt, outs[0], a * s.inner + i, v);
    }
    if (n->nout > 1 && outs[1])
      glow_elem_set(GLOW_DT_F32, outs[1], a, mean);
    if (n->nout > 2 && outs[2])
      glow_elem_set(GLOW_DT_F32, outs[2], a, inv);
  }
  return 0;
}

static int lower_layernorm(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  ln_shape s;
  if (ln_get(g, n, &s))
    return -1;
  glow_kcall_init(kc, "glow_k_layernorm_%s", glow_dtype_suffix(glow_in(g, n, 0)->dt));
  for (int o = 0; o < 3; o++)
    glow_kcall_tensor(kc, o < n->nout ? n->out[o] : -1);
  for (int i = 0; i < 3; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_abi_layernorm a = {.outer = s.outer, .inner = s.inner, .scale_one = s.scale_scalar, .bias_one = s.bias_scalar,
                          .eps = glow_f2p(glow_attr_float(n, "epsilon", 1e-5))};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_LAYER_NORMALIZATION = {"LayerNormalization", 2, 3, 1, 3, infer_layernorm, eval_layernorm,
                                                  lower_layernorm};

/* ---- LRN: y = x / (bias + alpha / size * sum of x^2 over nearby channels)^beta ---- */

static int infer_lrn(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  if (need_float(g, n))
    return -1;
  if (x->rank < 2)
    return glow_node_error(g, n, "X must have rank 2 or more");
  if (glow_attr_int(n, "size", 0) < 1)
    return glow_node_error(g, n, "attribute size is required and must be positive");
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, x->dims);
  return 0;
}

static int eval_lrn(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t N, C, S, size = glow_attr_int(n, "size", 1);
  ncs(x, &N, &C, &S);
  double alpha = glow_attr_float(n, "alpha", 1e-4), beta = glow_attr_float(n, "beta", 0.75);
  double bias = glow_attr_float(n, "bias", 1.0);
  for (int64_t a = 0; a < N; a++)
    for (int64_t c = 0; c < C; c++)
      for (int64_t s = 0; s < S; s++) {
        double sum = 0;
        for (int64_t j = c - (size - 1) / 2; j <= c + size / 2; j++)
          if (j >= 0 && j < C) {
            double v = glow_elem_get(x->dt, ins[0], (a * C + j) * S + s);
            sum += v * v;
          }
        int64_t i = (a * C + c) * S + s;
        glow_elem_set(x->dt, outs[0], i,
                      glow_elem_get(x->dt, ins[0], i) / pow(bias + alpha / (double)size * sum, beta));
      }
  return 0;
}

static int lower_lrn(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t N, C, S, size = glow_attr_int(n, "size", 1);
  ncs(x, &N, &C, &S);
  glow_kcall_init(kc, "glow_k_lrn_%s", glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_lrn a = {.N = N,
                    .C = C,
                    .S = S,
                    .lo = (size - 1) / 2,
                    .hi = size / 2,
                    .alpha = glow_f2p(glow_attr_float(n, "alpha", 1e-4) / (double)size),
                    .beta = glow_f2p(glow_attr_float(n, "beta", 0.75)),
                    .bias = glow_f2p(glow_attr_float(n, "bias", 1.0))};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_LRN = {"LRN", 1, 1, 1, 1, infer_lrn, eval_lrn, lower_lrn};

/* ---- MeanVarianceNormalization: (x - mean) / (std + 1e-9) over `axes` ---- */

static int mvn_axes(const glow_graph *g, const glow_node *n, int *red) {
  const glow_value *x = glow_in(g, n, 0);
  const int64_t *a;
  static const int64_t dflt[] = {0, 2, 3};
  int k = glow_attr_ints(n, "axes", &a);
  if (k < 0) {
    a = dflt;
    k = 3;
  }
  for (int d = 0; d < x->rank; d++)
    red[d] = 0;
  for (int i = 0; i < k; i++) {
    int ax = glow_norm_axis(g, n, a[i], x->rank);
    if (ax < 0)
      return -1;
    red[ax] = 1;
  }
  int nr = 0;
  for (int d = 0; d < x->rank; d++)
    nr += red[d];
  if (nr > 4 || x->rank - nr > 4)
    return glow_node_error(g, n, "at most 4 reduced and 4 kept axes are supported");
  return 0;
}

static int infer_mvn(glow_graph *g, glow_node *n) {
  int red[GLOW_MAX_RANK];
  if (need_float(g, n) || mvn_axes(g, n, red))
    return -1;
  return glow_infer_same_as_input(g, n);
}

/* Strides of the kept and the reduced axes, for a walk over X as [kept][reduced]. */
static void mvn_split(const glow_value *x, const int *red, int64_t *kd, int64_t *ks, int *nk, int64_t *rd, int64_t *rs,
                      int *nr) {
  int64_t st[GLOW_MAX_RANK];
  glow_dense_strides(x->rank, x->dims, st);
  *nk = *nr = 0;
  for (int d = 0; d < x->rank; d++) {
    if (red[d]) {
      rd[*nr] = x->dims[d];
      rs[(*nr)++] = st[d];
    } else {
      kd[*nk] = x->dims[d];
      ks[(*nk)++] = st[d];
    }
  }
}

static int eval_mvn(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int red[GLOW_MAX_RANK], nk, nr;
  int64_t kd[GLOW_MAX_RANK], ks[GLOW_MAX_RANK], rd[GLOW_MAX_RANK], rs[GLOW_MAX_RANK];
  mvn_axes(g, n, red);
  mvn_split(x, red, kd, ks, &nk, rd, rs, &nr);
  int64_t kn = 1, rn = 1;
  for (int i = 0; i < nk; i++)
    kn *= kd[i];
  for (int i = 0; i < nr; i++)
    rn *= rd[i];
  int64_t *off = glow_xmalloc(sizeof(int64_t) * (size_t)rn);
  for (int64_t r = 0; r < rn; r++) {
    int64_t o = 0, q = r;
    for (int i = nr - 1; i >= 0; i--) {
      o += q % rd[i] * rs[i];
      q /= rd[i];
    }
    off[r] = o;
  }
  for (int64_t k = 0; k < kn; k++) {
    int64_t base = 0, q = k;
    for (int i = nk - 1; i >= 0; i--) {
      base += q % kd[i] * ks[i];
      q /= kd[i];
    }
    double s = 0, s2 = 0;
    for (int64_t r = 0; r < rn; r++)
      s += glow_elem_get(x->dt, ins[0], base + off[r]);
    double mean = s / (double)rn;
    for (int64_t r = 0; r < rn; r++) {
      double v = glow_elem_get(x->dt, ins[0], base + off[r]) - mean;
      s2 += v * v;
    }
    double sd = sqrt(s2 / (double)rn) + 1e-9;
    for (int64_t r = 0; r < rn; r++)
      glow_elem_set(x->dt, outs[0], base + off[r], (glow_elem_get(x->dt, ins[0], base + off[r]) - mean) / sd);
  }
  free(off);
  return 0;
}

static int lower_mvn(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  int red[GLOW_MAX_RANK], nk, nr;
  int64_t kd[GLOW_MAX_RANK], ks[GLOW_MAX_RANK], rd[GLOW_MAX_RANK], rs[GLOW_MAX_RANK];
  mvn_axes(g, n, red);
  mvn_split(x, red, kd, ks, &nk, rd, rs, &nr);
  glow_kcall_init(kc, "glow_k_mvn_%s", glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  /* Kept and reduced axes, each padded to 4 with extent 1 in front. */
  glow_abi_mvn a;
  for (int i = 0; i < 4; i++) {
    int ki = i - (4 - nk), ri = i - (4 - nr);
    a.kept_dims[i] = ki < 0 ? 1 : kd[ki];
    a.kept_strides[i] = ki < 0 ? 0 : ks[ki];
    a.red_dims[i] = ri < 0 ? 1 : rd[ri];
    a.red_strides[i] = ri < 0 ? 0 : rs[ri];
  }
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_MEAN_VARIANCE_NORMALIZATION = {
    "MeanVarianceNormalization", 1, 1, 1, 1, infer_mvn, eval_mvn, lower_mvn};
