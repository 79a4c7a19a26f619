/* Recurrent ops: RNN, GRU and LSTM in float32. Each direction and batch
 * element is one recurrence; a step takes, per hidden unit, the dot products
 * of its gate rows of W with x_t and of R with h_{t-1} (rows are contiguous,
 * so they run 16 lanes at a time). The state (h, the next h and LSTM's c or
 * GRU's reset-gated h) is 3 * hidden_size floats on the stack.
 * t: Y, Y_h, Y_c, X, W, R, B, sequence_lens (int32), initial_h, initial_c, P
 *    (every one but X, W and R may be NULL)
 * p: kind (0 RNN, 1 GRU, 2 LSTM), S, N, I, H, D (directions), reverse (when D is 1),
 *    X's step and batch strides, Y's step, direction and batch strides,
 *    Y_h's (and Y_c's, initial_h's, initial_c's) direction and batch strides,
 *    clip (0: none), input_forget, linear_before_reset,
 *    then per direction (2) and activation (f, g, h): id, alpha, beta
 *    (ids as compiler/ops/nn-rnn.c numbers them). */
#include "kernel.h"
#include "kmath.h"
#include "kernels/nn-vec.h"

enum { RNN_RNN, RNN_GRU, RNN_LSTM };

typedef struct {
  int64_t id;
  float alpha, beta;
} rnn_act;

static inline float rnn_apply(const rnn_act *f, float x) {
  switch (f->id) {
  case 0: /* Relu */
    return x > 0.0f ? x : 0.0f;
  case 1: /* Tanh */
    return glow_tanhf(x);
  case 2: /* Sigmoid */
    return glow_sigmoidf(x);
  case 3: /* Affine */
    return f->alpha * x + f->beta;
  case 4: /* LeakyRelu */
    return x >= 0.0f ? x : f->alpha * x;
  case 5: /* ThresholdedRelu */
    return x > f->alpha ? x : 0.0f;
  case 6: /* ScaledTanh */
    return f->alpha * glow_tanhf(f->beta * x);
  case 7: { /* HardSigmoid */
    float v = f->alpha * x + f->beta;
    return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
  }
  case 8: /* Elu */
    return x >= 0.0f ? x : f->alpha * glow_expm1f(x);
  case 9: /* Softsign */
    return x / (1.0f + glow_fabsf(x));
  default: /* Softplus */
    return x > 0.0f ? x + glow_log1pf(glow_expf(-x)) : glow_log1pf(glow_expf(x));
  }
}

/* Lanes of acc plus the products of a and b past the last full 16. */
static inline float rnn_tail(const glow_nn_v16 *acc, const float *a, const float *b, int64_t k, int64_t n) {
  float s = 0.0f;
  for (; k < n; k++)
    s += a[k] * b[k];
  for (int j = 0; j < 16; j++)
    s += (*acc)[j];
  return s;
}

static inline float rnn_dot(const float *a, const float *b, int64_t n) {
  glow_nn_v16 acc = {0};
  int64_t k = 0;
  for (; k + 16 <= n; k += 16)
    acc += *(const glow_nn_v16 *)(a + k) * *(const glow_nn_v16 *)(b + k);
  return rnn_tail(&acc, a, b, k, n);
}

/* a . x + b . h, in one accumulator (one horizontal sum, not two). */
static inline float rnn_dot2(const float *a, const float *x, int64_t na, const float *b, const float *h, int64_t nb) {
  glow_nn_v16 acc = {0};
  int64_t k = 0, m = 0;
  for (; k + 16 <= na; k += 16)
    acc += *(const glow_nn_v16 *)(a + k) * *(const glow_nn_v16 *)(x + k);
  for (; m + 16 <= nb; m += 16)
    acc += *(const glow_nn_v16 *)(b + m) * *(const glow_nn_v16 *)(h + m);
  glow_nn_v16 none = {0};
  return rnn_tail(&acc, a, x, k, na) + rnn_tail(&none, b, h, m, nb);
}

/* One direction's weights and attributes. */
typedef struct {
  const float *w, *r, *wb, *rb, *p; /* wb, rb, p may be NULL */
  int64_t I, H;
  float clip;
  int input_forget, lbr;
  rnn_act f[3];
} rnn_dir;

static inline float rnn_clip(const rnn_dir *q, float v) {
  return q->clip > 0.0f ? (v < -q->clip ? -q->clip : v > q->clip ? q->clip : v) : v;
}

/* The input's part of gate row `row`, W x + Wb: from xw when a block has it. */
static inline float rnn_wx(const rnn_dir *q, int64_t row, const float *x, const float *xw) {
  return xw ? xw[row] : rnn_dot(q->w + row * q->I, x, q->I) + (q->wb ? q->wb[row] : 0.0f);
}

/* The state's part, R h + Rb. */
static inline float rnn_rh(const rnn_dir *q, int64_t row, const float *h) {
  return rnn_dot(q->r + row * q->H, h, q->H) + (q->rb ? q->rb[row] : 0.0f);
}

/* Gate row `row` before its activation: W x + R h + both biases. */
static inline float rnn_pre(const rnn_dir *q, int64_t row, const float *x, const float *xw, const float *h) {
  if (xw)
    return xw[row] + rnn_rh(q, row, h);
  float v = rnn_dot2(q->w + row * q->I, x, q->I, q->r + row * q->H, h, q->H);
  return q->wb ? v + q->wb[row] + q->rb[row] : v;
}

/* hn from x (or its precomputed W x + Wb, xw) and h; c (LSTM's cell) in
 * place; GRU uses c for r * h. */
static inline void rnn_step(int64_t kind, const rnn_dir *q, const float *x, const float *xw, const float *h, float *hn,
                            float *c) {
  int64_t H = q->H;
  if (kind == RNN_RNN) {
    for (int64_t j = 0; j < H; j++)
      hn[j] = rnn_apply(&q->f[0], rnn_clip(q, rnn_pre(q, j, x, xw, h)));
  } else if (kind == RNN_LSTM) {
    for (int64_t j = 0; j < H; j++) { /* gates i, o, f, c; peepholes i, o, f */
      float cp = c[j];
      float i = rnn_apply(&q->f[0], rnn_clip(q, rnn_pre(q, j, x, xw, h) + (q->p ? q->p[j] * cp : 0.0f)));
      float f = q->input_forget ? 1.0f - i
                                : rnn_apply(&q->f[0], rnn_clip(q, rnn_pre(q, 2 * H + j, x, xw, h) +
                                                                      (q->p ? q->p[2 * H + j] * cp : 0.0f)));
      float cn = f * cp + i * rnn_apply(&q->f[1], rnn_clip(q, rnn_pre(q, 3 * H + j, x, xw, h)));
      float o = rnn_apply(&q->f[0], rnn_clip(q, rnn_pre(q, H + j, x, xw, h) + (q->p ? q->p[H + j] * cn : 0.0f)));
      c[j] = cn;
      hn[j] = o * rnn_apply(&q->f[2], cn);
    }
  } else {
    /* First z (kept in hn) and r; the candidate needs all of r * h (or r * (R h + Rb)). */
    for (int64_t j = 0; j < H; j++) {
      hn[j] = rnn_apply(&q->f[0], rnn_clip(q, rnn_pre(q, j, x, xw, h)));
      float r = rnn_apply(&q->f[0], rnn_clip(q, rnn_pre(q, H + j, x, xw, h)));
      c[j] = q->lbr ? r * rnn_rh(q, 2 * H + j, h) : r * h[j];
    }
    for (int64_t j = 0; j < H; j++) {
      int64_t row = 2 * H + j;
      float v = rnn_wx(q, row, x, xw) + (q->lbr ? c[j] : rnn_rh(q, row, c));
      float hh = rnn_apply(&q->f[1], rnn_clip(q, v)), z = hn[j];
      hn[j] = (1.0f - z) * hh + z * h[j];
    }
  }
}

/* W x_t + Wb of steps s0 .. s0 + nb - 1 into xw[step - s0][row], a row of W
 * at a time (each row is read once per block, not once per step). */
static inline void rnn_xw_block(const rnn_dir *q, int64_t G, const float *x, int64_t xst, int64_t s0, int64_t nb,
                                int64_t len, int rev, float *xw) {
  for (int64_t row = 0; row < G * q->H; row++)
    for (int64_t k = 0; k < nb; k++) {
      int64_t s = s0 + k, ts = rev ? len - 1 - s : s;
      xw[k * G * q->H + row] = rnn_dot(q->w + row * q->I, x + ts * xst, q->I) + (q->wb ? q->wb[row] : 0.0f);
    }
}

/* Floats of the stack panel for blocks of W x_t (when one step's fit). */
#define RNN_XW (GLOW_STACK_PANEL_FLOATS / 2)

GLOW_KERNEL(rnn_f32) {
  float *y = (float *)t[0], *yh = (float *)t[1], *yc = (float *)t[2];
  const float *x = (const float *)t[3], *w = (const float *)t[4], *r = (const float *)t[5],
              *b = (const float *)t[6], *h0 = (const float *)t[8], *c0 = (const float *)t[9],
              *pp = (const float *)t[10];
  const int32_t *sl = (const int32_t *)t[7];
  int64_t kind = p[0], S = p[1], N = p[2], I = p[3], H = p[4], D = p[5];
  int64_t xst = p[7], xsb = p[8], yst = p[9], ysd = p[10], ysb = p[11], hsd = p[12], hsb = p[13];
  int64_t G = kind == RNN_LSTM ? 4 : kind == RNN_GRU ? 3 : 1;
  float buf[3 * H], xw[RNN_XW];
  int64_t blk = G * H <= RNN_XW ? RNN_XW / (G * H) : 0; /* steps per block; 0: W x at each step */
  for (int64_t d = 0; d < D; d++) {
    rnn_dir q = {w + d * G * H * I, r + d * G * H * H, b ? b + d * 2 * G * H : 0, b ? b + (d * 2 + 1) * G * H : 0,
                 pp ? pp + d * 3 * H : 0, I, H, (float)glow_pf(p[14]), (int)p[15], (int)p[16],
                 {{0, 0, 0}}};
    for (int k = 0; k < 3; k++) {
      const int64_t *a = p + 17 + (d * 3 + k) * 3;
      q.f[k] = (rnn_act){a[0], (float)glow_pf(a[1]), (float)glow_pf(a[2])};
    }
    int rev = D == 2 ? d == 1 : p[6] != 0;
    for (int64_t n = 0; n < N; n++) {
      int64_t len = sl ? (sl[n] < 0 ? 0 : sl[n] > S ? S : sl[n]) : S, ho = d * hsd + n * hsb;
      float *h = buf, *hn = buf + H, *c = buf + 2 * H;
      for (int64_t j = 0; j < H; j++) {
        h[j] = h0 ? h0[ho + j] : 0.0f;
        c[j] = c0 ? c0[ho + j] : 0.0f;
      }
      for (int64_t s0 = 0; s0 < len; s0 += blk ? blk : len) {
        int64_t nb = !blk ? len : len - s0 < blk ? len - s0 : blk;
        if (blk)
          rnn_xw_block(&q, G, x + n * xsb, xst, s0, nb, len, rev, xw);
        for (int64_t k = 0; k < nb; k++) {
          int64_t ts = rev ? len - 1 - (s0 + k) : s0 + k;
          rnn_step(kind, &q, x + ts * xst + n * xsb, blk ? xw + k * G * H : 0, h, hn, c);
          float *tmp = h;
          h = hn;
          hn = tmp;
          if (y)
            for (int64_t j = 0; j < H; j++)
              y[ts * yst + d * ysd + n * ysb + j] = h[j];
        }
      }
      for (int64_t ts = len; y && ts < S; ts++)
        for (int64_t j = 0; j < H; j++)
          y[ts * yst + d * ysd + n * ysb + j] = 0.0f;
      for (int64_t j = 0; j < H; j++) {
        if (yh)
          yh[ho + j] = h[j];
        if (yc)
          yc[ho + j] = c[j];
      }
    }
  }
}
