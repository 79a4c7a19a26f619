/* Recurrent ops: RNN, GRU and LSTM in float32. Each direction and batch
 * element is one recurrence. W x_t + Wb is computed for a block of steps at a
 * time (a stack panel of half GLOW_STACK_PANEL_FLOATS, or one step's gates if
 * more), then each step takes R h_{t-1} + Rb as matrix-vector products, four
 * rows of R at a time (rows are contiguous: 16 lanes), and the gates'
 * elementwise part. State: h, the next h, LSTM's c or GRU's reset-gated h and
 * R h, (3 + gates) * hidden_size floats on the stack.
 * t: Y, Y_h, Y_c, X, W, R, B, sequence_lens (int32), initial_h, initial_c, P
 *    (every one but X, W and R may be NULL)
 * p: glow_abi_rnn. */
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

/* out[j] = m[j * ld ..] . v over n, for four rows at once (four independent
 * accumulators: one alone would wait on its own adds). */
static inline void rnn_dot4(const float *m, int64_t ld, const float *v, int64_t n, float *out) {
  glow_nn_v16 acc[4] = {{0}};
  float tail[4] = {0};
  int64_t k = 0;
  for (; k + 16 <= n; k += 16) {
    glow_nn_v16 vv = *(const glow_nn_v16 *)(v + k);
    for (int j = 0; j < 4; j++)
      acc[j] += *(const glow_nn_v16 *)(m + j * ld + k) * vv;
  }
  for (; k < n; k++)
    for (int j = 0; j < 4; j++)
      tail[j] += m[j * ld + k] * v[k];
  for (int j = 0; j < 4; j++) {
    float s = tail[j];
    for (int l = 0; l < 16; l++)
      s += acc[j][l];
    out[j] = s;
  }
}

/* y[r] = M[r] . v + (bias ? bias[r] : 0) for r < rows (rows of M n apart). */
static inline void rnn_matvec(float *y, const float *m, const float *v, int64_t rows, int64_t n, const float *bias) {
  float o[4];
  if (rows < 4) {
    for (int64_t i = 0; i < rows; i++) {
      rnn_dot4(m + i * n, 0, v, n, o);
      y[i] = o[0] + (bias ? bias[i] : 0.0f);
    }
    return;
  }
  for (int64_t r = 0; r < rows; r += 4) {
    int64_t r0 = r + 4 <= rows ? r : rows - 4; /* the last group overlaps the one before */
    rnn_dot4(m + r0 * n, n, v, n, o);
    for (int j = 0; j < 4; j++)
      y[r0 + j] = o[j] + (bias ? bias[r0 + j] : 0.0f);
  }
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

/* hn from xw (W x_t + Wb, every gate row) and h; rh is scratch for R h + Rb;
 * c: LSTM's cell, in place, or GRU's reset-gated state. */
static inline void rnn_step(int64_t kind, const rnn_dir *q, const float *xw, const float *h, float *hn, float *c,
                            float *rh) {
  int64_t H = q->H;
  /* GRU without linear_before_reset takes R h of its z and r rows only; the candidate's R acts on r * h. */
  int64_t rows = kind == RNN_LSTM ? 4 * H : kind == RNN_GRU ? (q->lbr ? 3 : 2) * H : H;
  rnn_matvec(rh, q->r, h, rows, H, q->rb);
  if (kind == RNN_RNN) {
    for (int64_t j = 0; j < H; j++)
      hn[j] = rnn_apply(&q->f[0], rnn_clip(q, xw[j] + rh[j]));
  } else if (kind == RNN_LSTM) {
    for (int64_t j = 0; j < H; j++) { /* gates i, o, f, c; peepholes i, o, f */
      float cp = c[j];
      float i = rnn_apply(&q->f[0], rnn_clip(q, xw[j] + rh[j] + (q->p ? q->p[j] * cp : 0.0f)));
      float f = q->input_forget ? 1.0f - i
                                : rnn_apply(&q->f[0], rnn_clip(q, xw[2 * H + j] + rh[2 * H + j] +
                                                                      (q->p ? q->p[2 * H + j] * cp : 0.0f)));
      float cn = f * cp + i * rnn_apply(&q->f[1], rnn_clip(q, xw[3 * H + j] + rh[3 * H + j]));
      float o = rnn_apply(&q->f[0], rnn_clip(q, xw[H + j] + rh[H + j] + (q->p ? q->p[H + j] * cn : 0.0f)));
      c[j] = cn;
      hn[j] = o * rnn_apply(&q->f[2], cn);
    }
  } else {
    for (int64_t j = 0; j < H; j++) { /* z waits in hn */
      hn[j] = rnn_apply(&q->f[0], rnn_clip(q, xw[j] + rh[j]));
      float r = rnn_apply(&q->f[0], rnn_clip(q, xw[H + j] + rh[H + j]));
      c[j] = r * (q->lbr ? rh[2 * H + j] : h[j]);
    }
    if (!q->lbr)
      rnn_matvec(rh + 2 * H, q->r + 2 * H * H, c, H, H, q->rb ? q->rb + 2 * H : 0);
    for (int64_t j = 0; j < H; j++) {
      float hh = rnn_apply(&q->f[1], rnn_clip(q, xw[2 * H + j] + (q->lbr ? c[j] : rh[2 * H + j]))), z = hn[j];
      hn[j] = (1.0f - z) * hh + z * h[j];
    }
  }
}

/* W x_t + Wb of steps s0 .. s0 + nb - 1 into xw[step - s0][row], four rows of
 * W at a time (each row is read once per block, not once per step). */
static inline void rnn_xw_block(const rnn_dir *q, int64_t G, const float *x, int64_t xst, int64_t s0, int64_t nb,
                                int64_t len, int rev, float *xw) {
  int64_t GH = G * q->H, I = q->I;
  float o[4];
  for (int64_t r = 0; r < GH; r += 4) {
    int64_t r0 = r + 4 <= GH ? r : GH - 4;
    for (int64_t k = 0; k < nb; k++) {
      int64_t s = s0 + k, ts = rev ? len - 1 - s : s;
      if (GH < 4) {
        rnn_matvec(xw + k * GH, q->w, x + ts * xst, GH, I, q->wb);
        continue;
      }
      rnn_dot4(q->w + r0 * I, I, x + ts * xst, I, o);
      for (int j = 0; j < 4; j++)
        xw[k * GH + r0 + j] = o[j] + (q->wb ? q->wb[r0 + j] : 0.0f);
    }
  }
}

/* Floats of the stack panel for blocks of W x_t (at least one step's). */
#define RNN_XW (GLOW_STACK_PANEL_FLOATS / 2)

GLOW_KERNEL(rnn_f32) {
  float *y = (float *)t[0], *yh = (float *)t[1], *yc = (float *)t[2];
  const float *x = (const float *)t[3], *w = (const float *)t[4], *r = (const float *)t[5],
              *b = (const float *)t[6], *h0 = (const float *)t[8], *c0 = (const float *)t[9],
              *pp = (const float *)t[10];
  const int32_t *sl = (const int32_t *)t[7];
  const glow_abi_rnn *ap = (const glow_abi_rnn *)p;
  int64_t kind = ap->kind, S = ap->S, N = ap->N, I = ap->I, H = ap->H, D = ap->D;
  int64_t xst = ap->x_step, xsb = ap->x_batch, yst = ap->y_step, ysd = ap->y_dir, ysb = ap->y_batch;
  int64_t hsd = ap->h_dir, hsb = ap->h_batch;
  int64_t G = kind == RNN_LSTM ? 4 : kind == RNN_GRU ? 3 : 1;
#ifdef GLOW_NO_VLA /* NVPTX: fixed buffers; a larger hidden size stops the kernel (a launch error) */
  float buf[GLOW_STACK_PANEL_FLOATS / 2], xw[RNN_XW];
  if ((3 + G) * H > GLOW_STACK_PANEL_FLOATS / 2 || G * H > RNN_XW)
    __builtin_trap();
#else
  float buf[(3 + G) * H], xw[G * H > RNN_XW ? G * H : RNN_XW];
#endif
  int64_t blk = G * H <= RNN_XW ? RNN_XW / (G * H) : 1; /* steps per block */
  for (int64_t d = 0; d < D; d++) {
    rnn_dir q = {w + d * G * H * I, r + d * G * H * H, b ? b + d * 2 * G * H : 0, b ? b + (d * 2 + 1) * G * H : 0,
                 pp ? pp + d * 3 * H : 0, I, H, (float)glow_pf(ap->clip), (int)ap->input_forget,
                 (int)ap->linear_before_reset, {{0, 0, 0}}};
    for (int k = 0; k < 3; k++) {
      const glow_abi_rnn_act *a = &ap->act[d][k];
      q.f[k] = (rnn_act){a->id, (float)glow_pf(a->alpha), (float)glow_pf(a->beta)};
    }
    int rev = D == 2 ? d == 1 : ap->reverse != 0;
    for (int64_t n = 0; n < N; n++) {
      int64_t len = sl ? (sl[n] < 0 ? 0 : sl[n] > S ? S : sl[n]) : S, ho = d * hsd + n * hsb;
      float *h = buf, *hn = buf + H, *c = buf + 2 * H;
      for (int64_t j = 0; j < H; j++) {
        h[j] = h0 ? h0[ho + j] : 0.0f;
        c[j] = c0 ? c0[ho + j] : 0.0f;
      }
      for (int64_t s0 = 0; s0 < len; s0 += blk) {
        int64_t nb = len - s0 < blk ? len - s0 : blk;
        rnn_xw_block(&q, G, x + n * xsb, xst, s0, nb, len, rev, xw);
        for (int64_t k = 0; k < nb; k++) {
          int64_t ts = rev ? len - 1 - (s0 + k) : s0 + k;
          rnn_step(kind, &q, xw + k * G * H, h, hn, c, buf + 3 * H);
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
