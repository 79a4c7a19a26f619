/* Recurrent ops: RNN, GRU and LSTM (opsets 7-14: every direction, layout 0
 * and 1, sequence_lens, initial states, peepholes, clip, input_forget,
 * linear_before_reset and the eleven standard activations), float32 only.
 * Each direction and batch element is one recurrence over the sequence; the
 * kernel (targets/common/kernels/rnn.c) runs it with matrix-vector products
 * over W and R, this file's reference in double. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops/op-util.h"

enum { RNN_RNN, RNN_GRU, RNN_LSTM }; /* the kernel's `kind` parameter */

/* Activation ids, the kernel's rnn_act() cases in this order. nalpha/nbeta:
 * how many of activation_alpha/beta it takes; then its defaults. */
static const struct {
  const char *name;
  int nalpha, nbeta;
  double alpha, beta;
} acts[] = {
    {"Relu", 0, 0, 0, 0},       {"Tanh", 0, 0, 0, 0},       {"Sigmoid", 0, 0, 0, 0},
    {"Affine", 1, 1, 1, 0},     {"LeakyRelu", 1, 0, 0.01, 0}, {"ThresholdedRelu", 1, 0, 1, 0},
    {"ScaledTanh", 1, 1, 1, 1}, {"HardSigmoid", 1, 1, 0.2, 0.5}, {"Elu", 1, 0, 1, 0},
    {"Softsign", 0, 0, 0, 0},   {"Softplus", 0, 0, 0, 0},
};
enum {
  ACT_RELU, ACT_TANH, ACT_SIGMOID, ACT_AFFINE, ACT_LEAKY_RELU, ACT_THRESHOLDED_RELU, ACT_SCALED_TANH,
  ACT_HARD_SIGMOID, ACT_ELU, ACT_SOFTSIGN, ACT_SOFTPLUS, ACT_COUNT
};
_Static_assert(ACT_COUNT == sizeof acts / sizeof acts[0], "one id per activation");

typedef struct {
  int kind, ngates, nact; /* gates per unit in W (1, 3, 4); activations per direction (1, 2, 3) */
  int64_t S, N, I, H, D;  /* sequence, batch, input, hidden, directions */
  int layout, reverse;    /* reverse: the one direction runs backwards */
  double clip;            /* 0: none */
  int input_forget, linear_before_reset;
  int act[2][3];
  double alpha[2][3], beta[2][3];
} rnn_spec;

static int name_eq(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
      return 0;
  return *a == *b;
}

/* activations, activation_alpha and activation_beta; the values are taken in
 * order by the activations that use them (as ONNX Runtime does). */
static int rnn_acts(const glow_graph *g, const glow_node *n, rnn_spec *s) {
  static const int dflt[3][3] = {{ACT_TANH}, {ACT_SIGMOID, ACT_TANH}, {ACT_SIGMOID, ACT_TANH, ACT_TANH}};
  const glow_attr *an = glow_attr_find(n, "activations"), *aa = glow_attr_find(n, "activation_alpha"),
                  *ab = glow_attr_find(n, "activation_beta");
  int want = s->nact * (int)s->D, count = an && an->type == GLOW_ATTR_STRINGS ? an->n : 0;
  if (count && count != want && !(s->D == 2 && count == s->nact))
    return glow_node_error(g, n, "activations lists %d functions; %s with direction %s takes %d", count,
                           glow_op_get(n->op)->onnx_name,
                           s->D == 2 ? "bidirectional" : "forward or reverse", want);
  int na = aa && aa->type == GLOW_ATTR_FLOATS ? aa->n : 0, nb = ab && ab->type == GLOW_ATTR_FLOATS ? ab->n : 0;
  int ia = 0, ib = 0;
  for (int k = 0; k < want; k++) {
    int d = k / s->nact, f = k % s->nact, id = dflt[s->nact - 1][f];
    if (count) {
      const char *name = an->strings[k % count];
      for (id = 0; id < ACT_COUNT && !name_eq(name, acts[id].name); id++)
        ;
      if (id == ACT_COUNT)
        return glow_node_error(g, n, "activation '%s' is not supported", name);
    }
    s->act[d][f] = id;
    s->alpha[d][f] = acts[id].nalpha && ia < na ? aa->floats[ia++] : acts[id].alpha;
    s->beta[d][f] = acts[id].nbeta && ib < nb ? ab->floats[ib++] : acts[id].beta;
  }
  return 0;
}

/* Input i, when present, must be float32 of the given shape. */
static int need_shape(const glow_graph *g, const glow_node *n, int i, const char *what, int rank, const int64_t *d) {
  const glow_value *v = glow_in(g, n, i);
  if (!v)
    return 0;
  int ok = v->rank == rank && v->dt == (i == 4 ? GLOW_DT_I32 : GLOW_DT_F32);
  for (int k = 0; ok && k < rank; k++)
    ok = v->dims[k] == d[k];
  if (ok)
    return 0;
  char got[96];
  const char *dt = i == 4 ? "int32" : "float";
  switch (rank) {
  case 1:
    return glow_node_error(g, n, "%s must be %s[%lld], not %s", what, dt, (long long)d[0], glow_shape_str(v, got, 96));
  case 2:
    return glow_node_error(g, n, "%s must be %s[%lld,%lld], not %s", what, dt, (long long)d[0], (long long)d[1],
                           glow_shape_str(v, got, 96));
  default:
    return glow_node_error(g, n, "%s must be %s[%lld,%lld,%lld], not %s", what, dt, (long long)d[0],
                           (long long)d[1], (long long)d[2], glow_shape_str(v, got, 96));
  }
}

static int rnn_get(const glow_graph *g, const glow_node *n, rnn_spec *s) {
  memset(s, 0, sizeof *s);
  s->kind = n->op == GLOW_OP_LSTM ? RNN_LSTM : n->op == GLOW_OP_GRU ? RNN_GRU : RNN_RNN;
  s->ngates = s->kind == RNN_LSTM ? 4 : s->kind == RNN_GRU ? 3 : 1;
  s->nact = s->kind == RNN_LSTM ? 3 : s->kind == RNN_GRU ? 2 : 1;
  const glow_value *x = glow_in(g, n, 0), *w = glow_in(g, n, 1);
  if (x->dt != GLOW_DT_F32)
    return glow_node_error(g, n, "X of type %s is not supported (float32 only)", glow_dtype_name(x->dt));
  if (x->rank != 3)
    return glow_node_error(g, n, "X must have rank 3");
  const char *dir = glow_attr_string(n, "direction", "forward");
  s->D = !strcmp(dir, "bidirectional") ? 2 : 1;
  s->reverse = !strcmp(dir, "reverse");
  if (s->D == 1 && !s->reverse && strcmp(dir, "forward"))
    return glow_node_error(g, n, "direction '%s' is not forward, reverse or bidirectional", dir);
  s->layout = (int)glow_attr_int(n, "layout", 0);
  if (s->layout != 0 && s->layout != 1)
    return glow_node_error(g, n, "layout %d is not 0 or 1", s->layout);
  s->S = x->dims[s->layout ? 1 : 0];
  s->N = x->dims[s->layout ? 0 : 1];
  s->I = x->dims[2];
  if (w->rank != 3 || w->dims[1] % s->ngates)
    return glow_node_error(g, n, "W must be [num_directions, %d*hidden_size, input_size]", s->ngates);
  s->H = glow_attr_int(n, "hidden_size", w->dims[1] / s->ngates);
  if (s->H < 1)
    return glow_node_error(g, n, "hidden_size must be positive");
  s->clip = glow_attr_float(n, "clip", 0);
  if (glow_attr_find(n, "clip") && !(s->clip > 0))
    return glow_node_error(g, n, "clip must be positive");
  s->input_forget = glow_attr_int(n, "input_forget", 0) != 0;
  s->linear_before_reset = glow_attr_int(n, "linear_before_reset", 0) != 0;
  int64_t GH = s->ngates * s->H, st[3] = {s->layout ? s->N : s->D, s->layout ? s->D : s->N, s->H};
  int64_t dw[3] = {s->D, GH, s->I}, dr[3] = {s->D, GH, s->H}, db[2] = {s->D, 2 * GH}, dp[2] = {s->D, 3 * s->H};
  if (need_shape(g, n, 1, "W", 3, dw) || need_shape(g, n, 2, "R", 3, dr) || need_shape(g, n, 3, "B", 2, db) ||
      need_shape(g, n, 4, "sequence_lens", 1, &s->N) || need_shape(g, n, 5, "initial_h", 3, st))
    return -1;
  if (s->kind == RNN_LSTM && (need_shape(g, n, 6, "initial_c", 3, st) || need_shape(g, n, 7, "P", 2, dp)))
    return -1;
  return rnn_acts(g, n, s);
}

static int infer_rnn(glow_graph *g, glow_node *n) {
  rnn_spec s;
  if (rnn_get(g, n, &s))
    return -1;
  int64_t y[4] = {s.S, s.D, s.N, s.H}, yl[4] = {s.N, s.S, s.D, s.H};
  int64_t h[3] = {s.D, s.N, s.H}, hl[3] = {s.N, s.D, s.H};
  if (glow_out(g, n, 0))
    glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_F32, 4, s.layout ? yl : y);
  for (int o = 1; o < 3; o++)
    if (glow_out(g, n, o))
      glow_value_set_shape(glow_out(g, n, o), GLOW_DT_F32, 3, s.layout ? hl : h);
  return 0;
}

/* ---- reference ---- */

static double act_ref(const rnn_spec *s, int d, int f, double x) {
  double a = s->alpha[d][f], b = s->beta[d][f];
  switch (s->act[d][f]) {
  case ACT_RELU:
    return x > 0 ? x : 0;
  case ACT_TANH:
    return tanh(x);
  case ACT_SIGMOID:
    return 1 / (1 + exp(-x));
  case ACT_AFFINE:
    return a * x + b;
  case ACT_LEAKY_RELU:
    return x >= 0 ? x : a * x;
  case ACT_THRESHOLDED_RELU:
    return x > a ? x : 0;
  case ACT_SCALED_TANH:
    return a * tanh(b * x);
  case ACT_HARD_SIGMOID:
    return fmax(0, fmin(1, a * x + b));
  case ACT_ELU:
    return x >= 0 ? x : a * expm1(x);
  case ACT_SOFTSIGN:
    return x / (1 + fabs(x));
  default:
    return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
  }
}

static double clip_ref(const rnn_spec *s, double v) { return s->clip > 0 ? fmax(-s->clip, fmin(s->clip, v)) : v; }

/* out[r] = sum_k m[r][k] * v[k] + (bias ? bias[r] : 0) for r < rows. */
static void matvec_ref(double *out, const float *m, const double *v, int64_t rows, int64_t cols, const float *bias) {
  for (int64_t r = 0; r < rows; r++) {
    double acc = bias ? bias[r] : 0;
    for (int64_t k = 0; k < cols; k++)
      acc += (double)m[r * cols + k] * v[k];
    out[r] = acc;
  }
}

typedef struct {
  const float *w, *r, *wb, *rb, *p; /* one direction's */
  double *xw, *hr, *h, *c, *tmp;
} rnn_ref_state;

/* One step of direction d from h (and c), in place. */
static void step_ref(const rnn_spec *s, int d, rnn_ref_state *q) {
  int64_t H = s->H;
  matvec_ref(q->hr, q->r, q->h, s->ngates * H, H, q->rb);
  for (int64_t j = 0; j < H; j++) {
    const double *xw = q->xw, *hr = q->hr;
    double hp = q->h[j];
    if (s->kind == RNN_RNN) {
      q->tmp[j] = act_ref(s, d, 0, clip_ref(s, xw[j] + hr[j]));
    } else if (s->kind == RNN_LSTM) {
      double cp = q->c[j], pi = q->p ? q->p[j] : 0, po = q->p ? q->p[H + j] : 0, pf = q->p ? q->p[2 * H + j] : 0;
      double i = act_ref(s, d, 0, clip_ref(s, xw[j] + hr[j] + pi * cp));
      double f = s->input_forget ? 1 - i : act_ref(s, d, 0, clip_ref(s, xw[2 * H + j] + hr[2 * H + j] + pf * cp));
      double c = f * cp + i * act_ref(s, d, 1, clip_ref(s, xw[3 * H + j] + hr[3 * H + j]));
      double o = act_ref(s, d, 0, clip_ref(s, xw[H + j] + hr[H + j] + po * c));
      q->c[j] = c;
      q->tmp[j] = o * act_ref(s, d, 2, c);
    } else {
      double z = act_ref(s, d, 0, clip_ref(s, xw[j] + hr[j]));
      double r = act_ref(s, d, 0, clip_ref(s, xw[H + j] + hr[H + j]));
      q->tmp[j] = z;
      q->c[j] = s->linear_before_reset ? r * hr[2 * H + j] : r * hp; /* c holds GRU's reset-gated term */
    }
  }
  if (s->kind == RNN_GRU) {
    if (!s->linear_before_reset) {
      double *rh = q->c;
      matvec_ref(q->hr, q->r + 2 * H * H, rh, H, H, q->rb ? q->rb + 2 * H : NULL);
      for (int64_t j = 0; j < H; j++)
        rh[j] = q->hr[j];
    }
    for (int64_t j = 0; j < H; j++) {
      double hh = act_ref(s, d, 1, clip_ref(s, q->xw[2 * H + j] + q->c[j]));
      q->tmp[j] = (1 - q->tmp[j]) * hh + q->tmp[j] * q->h[j];
    }
  }
  memcpy(q->h, q->tmp, sizeof(double) * (size_t)H);
}

static int eval_rnn(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  rnn_spec s;
  if (rnn_get(g, n, &s))
    return -1;
  int64_t H = s.H, GH = s.ngates * H, S = s.S, N = s.N, D = s.D;
  const float *x = ins[0], *h0 = n->nin > 5 ? ins[5] : NULL, *c0 = n->nin > 6 ? ins[6] : NULL;
  const int32_t *sl = n->nin > 4 ? ins[4] : NULL;
  float *y = outs[0], *yh = n->nout > 1 ? outs[1] : NULL, *yc = n->nout > 2 ? outs[2] : NULL;
  double *buf = glow_xcalloc((size_t)(2 * GH + 3 * H + s.I), sizeof(double));
  rnn_ref_state q = {.xw = buf, .hr = buf + GH, .h = buf + 2 * GH, .c = buf + 2 * GH + H, .tmp = buf + 2 * GH + 2 * H};
  double *xv = q.tmp + H;
  for (int64_t d = 0; d < D; d++) {
    const float *b = n->nin > 3 ? ins[3] : NULL;
    q.w = (const float *)ins[1] + d * GH * s.I;
    q.r = (const float *)ins[2] + d * GH * H;
    q.wb = b ? b + d * 2 * GH : NULL;
    q.rb = b ? b + d * 2 * GH + GH : NULL;
    q.p = n->nin > 7 && ins[7] ? (const float *)ins[7] + d * 3 * H : NULL;
    int rev = D == 2 ? d == 1 : s.reverse;
    for (int64_t bi = 0; bi < N; bi++) {
      int64_t len = sl ? sl[bi] < 0 ? 0 : sl[bi] > S ? S : sl[bi] : S;
      int64_t ho = s.layout ? (bi * D + d) * H : (d * N + bi) * H;
      for (int64_t j = 0; j < H; j++) {
        q.h[j] = h0 ? h0[ho + j] : 0;
        q.c[j] = s.kind == RNN_LSTM && c0 ? c0[ho + j] : 0;
      }
      for (int64_t st = 0; st < S; st++) {
        int64_t t = rev ? len - 1 - st : st, xo = s.layout ? (bi * S + t) * s.I : (t * N + bi) * s.I;
        if (st < len) {
          for (int64_t k = 0; k < s.I; k++)
            xv[k] = x[xo + k];
          matvec_ref(q.xw, q.w, xv, GH, s.I, q.wb);
          step_ref(&s, (int)d, &q);
        } else {
          t = st;
        }
        int64_t yo = s.layout ? ((bi * S + t) * D + d) * H : ((t * D + d) * N + bi) * H;
        for (int64_t j = 0; y && j < H; j++)
          y[yo + j] = st < len ? (float)q.h[j] : 0.0f;
      }
      for (int64_t j = 0; j < H; j++) {
        if (yh)
          yh[ho + j] = (float)q.h[j];
        if (yc)
          yc[ho + j] = (float)q.c[j];
      }
    }
  }
  free(buf);
  return 0;
}

/* ---- lowering: glow_k_rnn_f32 ---- */

static int lower_rnn(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  rnn_spec s;
  if (rnn_get(g, n, &s))
    return -1;
  glow_kcall_init(kc, "glow_k_rnn_f32");
  for (int o = 0; o < 3; o++)
    glow_kcall_tensor(kc, o < n->nout ? n->out[o] : -1);
  for (int i = 0; i < 8; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  int64_t S = s.S, N = s.N, D = s.D, H = s.H, I = s.I;
  glow_abi_rnn a = {.kind = s.kind,
                    .S = S,
                    .N = N,
                    .I = I,
                    .H = H,
                    .D = D,
                    .reverse = s.reverse,
                    .x_step = s.layout ? I : N * I,
                    .x_batch = s.layout ? S * I : I,
                    .y_step = s.layout ? D * H : D * N * H,
                    .y_dir = s.layout ? H : N * H,
                    .y_batch = s.layout ? S * D * H : H,
                    .h_dir = s.layout ? H : N * H,
                    .h_batch = s.layout ? D * H : H,
                    .clip = glow_f2p(s.clip),
                    .input_forget = s.input_forget,
                    .linear_before_reset = s.linear_before_reset};
  for (int d = 0; d < 2; d++)
    for (int f = 0; f < 3; f++) {
      int dd = d < D ? d : 0, ff = f < s.nact ? f : 0;
      a.act[d][f] = (glow_abi_rnn_act){s.act[dd][ff], glow_f2p(s.alpha[dd][ff]), glow_f2p(s.beta[dd][ff])};
    }
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_RNN = {"RNN", 3, 6, 0, 2, infer_rnn, eval_rnn, lower_rnn};
const glow_op_info glow_op_GRU = {"GRU", 3, 6, 0, 2, infer_rnn, eval_rnn, lower_rnn};
const glow_op_info glow_op_LSTM = {"LSTM", 3, 8, 0, 3, infer_rnn, eval_rnn, lower_rnn};
