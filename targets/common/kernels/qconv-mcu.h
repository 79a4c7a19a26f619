/* QLinearConv on Cortex-M (kernels/qconv.c takes it where glow_qdot_mcu()):
 * 1-D and 2-D, int8/uint8, with the plain, DSP or MVE steps of
 * kernels/qmcu.h. Two paths, both reading X in its N x C x H x W layout:
 *
 * Im2col (two or more input channels per group; W in either layout of
 * qconv.c), as CMSIS-NN does it: a band of output positions is copied into a
 * stack buffer, one column of K values per position in W's order (K = C/G x
 * taps, or taps x C4 for packed W), then each output channel's weight row is
 * a dot product with the columns, a block of them at a time:
 *   DSP: columns of int16 x - x_zero_point (0 for padding), 1 channel x 4
 *     columns; 4 weight bytes at once become two int16 pairs (SXTB16: bytes
 *     0 and 2, 1 and 3), so the columns hold each 4 values in that order
 *     (0, 2, 1, 3) and two SMLADs add 4 products. The weight zero point is a
 *     correction: sum (x - xz)(w - wz) = sum (x - xz) w - wz sum (x - xz);
 *   MVE (packed W): columns of int8 x' (uint8 x flipped to x - 128, and
 *     x_zero_point with it; padding holds xz', padded channels 0), 1 channel
 *     x 4 columns, 16 products a VMLADAVA, and
 *       sum (x' - xz')(w - wz) = sum x' w - xz' sum w - wz sum x' + K xz' wz;
 *   plain: columns of bytes x' (int8 x flipped to unsigned: Armv6-M loads
 *     bytes at constant offsets only unsigned), 1 channel x 2 columns, the
 *     same correction.
 * A block's columns are stored group by group (4 values for DSP, 16 for
 * MVE), so that a step reads consecutive bytes. When K does not fit the
 * buffer for one block, it is split into chunks and the sums of a block of
 * channels wait in the panel's second half.
 *
 * Depthwise (one input channel per group): a band of input rows is copied as
 * bytes into a stack buffer with the padding (x_zero_point) around them; the
 * sums take the raw bytes times the weights less their zero point (int16),
 * less xz times the weights' sum:
 *   plain: one product at a time;
 *   DSP: 4 bytes of a row at once, bytes 0 and 2 and 1 and 3 as int16 pairs
 *     (taps kw, kw + 2 and kw + 1, kw + 3) for SMLAD;
 *   MVE: 4 output columns a vector, VMLA by each tap's weight; the horizontal
 *     stride splits the buffer's columns into phases (qconv.c says how), so a
 *     tap reads consecutive bytes.
 * Each output is requantized as kernels/quant.h says (qmcu.h's qmcu_rq): the
 * same bytes as the other targets' kernels. */
#include "kernels/qmcu.h"

#define QMCU_ACC (GLOW_STACK_PANEL_FLOATS / 2)   /* int32 sums waiting across chunks */
#define QMCU_TABLE (GLOW_STACK_PANEL_FLOATS / 16) /* channels of a group's table; of a block with chunks */
#define QMCU_PMAX 64                           /* columns of a band, at most */

typedef struct {
  int32_t N, G, Cg, Mg, IH, IW, OH, OW, KH, KW, sh, sw, dh, dw, pt, pl;
  int32_t xsg, wsg, ysg, ws_pc, wz_pc, layout, ksz, c4, K;
} qmcu_geo;

static inline qmcu_geo qmcu_geo_of(const int64_t *p) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *in = qa->w.in, *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *d = qa->w.d, *pb = qa->w.pb;
  qmcu_geo g;
  g.N = (int32_t)qa->N;
  g.G = (int32_t)qa->G;
  g.Cg = (int32_t)qa->Cg;
  g.Mg = (int32_t)qa->Mg;
  g.xsg = (qa->signs & GLOW_Q_X_SIGNED) != 0;
  g.wsg = (qa->signs & GLOW_Q_W_SIGNED) != 0;
  g.ysg = (qa->signs & GLOW_Q_Y_SIGNED) != 0;
  g.ws_pc = (int32_t)qa->ws_per_channel;
  g.wz_pc = (int32_t)qa->wz_per_channel;
  g.layout = (int32_t)qa->w_layout;
  g.IH = (int32_t)in[1];
  g.IW = (int32_t)in[2];
  g.OH = (int32_t)out[1];
  g.OW = (int32_t)out[2];
  g.KH = (int32_t)k[1];
  g.KW = (int32_t)k[2];
  g.sh = (int32_t)s[1];
  g.sw = (int32_t)s[2];
  g.dh = (int32_t)d[1];
  g.dw = (int32_t)d[2];
  g.pt = (int32_t)pb[1];
  g.pl = (int32_t)pb[2];
  g.ksz = g.KH * g.KW;
  g.c4 = (g.Cg + 3) / 4 * 4;
  g.K = g.layout ? g.ksz * g.c4 : g.Cg * g.ksz; /* a weight row */
  if (g.layout) /* packed W is int8 (compiler/passes/pack-weights.c) */
    g.wsg = 1;
  return g;
}

/* Whether this file's paths take the convolution: 1-D and 2-D, sizes that fit
 * 32-bit indices. */
static inline int qmcu_conv_applies(const int64_t *p) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *in = qa->w.in, *out = qa->w.out, *k = qa->w.k, *pb = qa->w.pb;
  return in[0] == 1 && out[0] == 1 && k[0] == 1 && pb[0] == 0 && qa->N * qa->G * qa->Cg * in[1] * in[2] < (1 << 30) &&
         qa->N * qa->G * qa->Mg * out[1] * out[2] < (1 << 30) && !(qa->w_layout && qa->Cg == 1);
}

/* ---- Im2col ---- */

/* The forms of a column: int16 x - xz (DSP), or bytes x' = x ^ flip (plain:
 * unsigned, int8 x flipped; MVE: int8, uint8 x flipped). */
enum { QMCU_COL_U8, QMCU_COL_S16, QMCU_COL_S8 };

/* The im2col plan. A block of PB columns is one piece of the buffer, group
 * by group of G values: [group][column][G values], so that a step reads one
 * group of every column of the block from consecutive bytes. Values are elem
 * bytes; KP values a column (K or a chunk, rounded up to 16), KC a chunk of K
 * (K when one chunk: the whole panel is the buffer; else half of it, and the
 * sums of MB channels wait in the other half), P columns a band. */
typedef struct {
  int32_t form, elem, PB, G, KP, KC, P, MB;
} qmcu_plan;

static inline qmcu_plan qmcu_plan_of(const qmcu_geo *g) {
  qmcu_plan pl;
  pl.form = QMCU_MVE && g->layout ? QMCU_COL_S8 : QMCU_DSP ? QMCU_COL_S16 : QMCU_COL_U8;
  pl.elem = pl.form == QMCU_COL_S16 ? 2 : 1;
  pl.PB = pl.form == QMCU_COL_U8 ? 2 : 4;
  pl.G = pl.form == QMCU_COL_S8 ? 16 : pl.form == QMCU_COL_S16 ? 4 : 1;
  int32_t whole = (g->K + 15) / 16 * 16;
  if (whole * pl.elem * pl.PB <= 2 * QMCU_BUF) {
    pl.KC = g->K;
    pl.KP = whole;
    pl.P = qmcu_min(2 * QMCU_BUF / (whole * pl.elem), QMCU_PMAX) / pl.PB * pl.PB;
    pl.P = qmcu_min(pl.P, (g->OH * g->OW + pl.PB - 1) / pl.PB * pl.PB);
    pl.MB = g->Mg;
  } else {
    pl.KC = QMCU_BUF / (pl.elem * pl.PB) / 16 * 16;
    pl.KP = pl.KC;
    pl.P = pl.PB;
    pl.MB = qmcu_min(qmcu_min(g->Mg, QMCU_ACC / pl.P), QMCU_TABLE);
  }
  return pl;
}

/* Where value i of column c of a block goes (in values from the block's
 * start), for a column of n values. */
static inline int32_t qmcu_at(const qmcu_plan *pl, int32_t c, int32_t i, int32_t n) {
  uint32_t u = (uint32_t)i, G = (uint32_t)pl->G, r = u % G; /* G: 1, 4 or 16 */
  if (pl->form == QMCU_COL_S16 && i < (n & ~3)) /* DSP order in each 4 (the steps take the rest in order) */
    r = (r & ~3u) | (r & 1) << 1 | (r & 2) >> 1;
  return (int32_t)((u / G * (uint32_t)pl->PB + (uint32_t)c) * G + r);
}

static inline void qmcu_put(uint8_t *blk, const qmcu_plan *pl, int32_t c, int32_t i, int32_t n, int32_t v) {
  if (pl->elem == 2)
    ((int16_t *)blk)[qmcu_at(pl, c, i, n)] = (int16_t)v;
  else
    blk[qmcu_at(pl, c, i, n)] = (uint8_t)v;
}

/* Column c of the block at blk: the values at k in [k0, k0 + n) of output
 * position (oh, ow)'s window, in W's order, in the plan's form:
 *   S16: x - xz (0 for padding and padded channels), in DSP order (0, 2, 1, 3
 *        in each 4, up to K rounded down to 4: the taps' order of SXTB16);
 *   U8, S8: x' = x ^ flip (xz' for padding, 0 for padded channels);
 * then zeros up to a multiple of 16. Returns the sum of the values stored.
 * Packed W: runs of channels of one tap, 4 at a time (a run of 4 stays in
 * one group). */
static inline int32_t qmcu_im2col(uint8_t *blk, int32_t c, const qmcu_plan *pl, const qmcu_geo *g, const uint8_t *xg,
                                  int32_t oh, int32_t ow, int32_t k0, int32_t n, int32_t xz, uint8_t flip) {
  int32_t ih0 = oh * g->sh - g->pt, iw0 = ow * g->sw - g->pl, IHW = g->IH * g->IW, sum = 0;
  int s16 = pl->form == QMCU_COL_S16, s8 = pl->form == QMCU_COL_S8, pad = s16 ? 0 : xz;
  if (g->layout) {
    int32_t tap = k0 / g->c4, c0 = k0 % g->c4, kh = tap / g->KW, kw = tap % g->KW;
    for (int32_t at = 0; at < n; c0 = 0) {
      int32_t ih = ih0 + kh * g->dh, iw = iw0 + kw * g->dw, run = qmcu_min(g->c4 - c0, n - at);
      int inside = (uint32_t)ih < (uint32_t)g->IH && (uint32_t)iw < (uint32_t)g->IW;
      /* channels [c0, c0 + nx) read x, the next ones up to C/G are padding, the rest 0 */
      int32_t nreal = qmcu_max(qmcu_min(g->Cg - c0, run), 0), nx = inside ? nreal : 0, i = 0;
      const uint8_t *sp = xg + c0 * IHW + ih * g->IW + iw;
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
      /* MVE, a tap inside X: 8 channels a gather (VLDRB with 16-bit offsets), the
       * ones past C/G 0; where a group's 16 values hold whole 8s of them. */
      if (s8 && inside && g->c4 % 8 == 0 && at % 8 == 0 && run % 8 == 0 && 7 * IHW <= 65535) {
        uint16x8_t off = vmulq_n_u16(vidupq_n_u16(0, 1), (uint16_t)IHW);
        for (; i < run; i += 8, sp += 8 * IHW) {
          mve_pred16_t pr = vctp16q((uint32_t)qmcu_max(nx - i, 0));
          int16x8_t v = g->xsg ? vldrbq_gather_offset_z_s16((const int8_t *)sp, off, pr)
                               : vsubq_m_n_s16(vdupq_n_s16(0),
                                               vreinterpretq_s16_u16(vldrbq_gather_offset_z_u16(sp, off, pr)), 128, pr);
          vstrbq_s16((int8_t *)blk + qmcu_at(pl, c, at + i, n), v);
          sum = vaddvaq_s16(sum, v);
        }
      }
#endif
      /* 4 values at o, then the next 4 of the column: a group further (DSP: 4
       * values a group; plain: 1), or within MVE's group of 16 */
      for (int32_t o = qmcu_at(pl, c, at + i, n); i + 4 <= nx; i += 4, sp += 4 * IHW) {
        int32_t v[4];
        for (int q = 0; q < 4; q++)
          v[q] = s16 ? GLOW_Q8_ELEM(sp[q * IHW], g->xsg) - xz
                     : s8 ? (int32_t)(int8_t)(sp[q * IHW] ^ flip) : (int32_t)(uint8_t)(sp[q * IHW] ^ flip);
        if (s16) { /* (v0, v2), (v1, v3): one STRD */
          uint32_t e = (uint32_t)(uint16_t)v[0] | (uint32_t)v[2] << 16, d = (uint32_t)(uint16_t)v[1] | (uint32_t)v[3] << 16;
          *(uint64_t *)(blk + 2 * o) = (uint64_t)d << 32 | e;
        } else {
          for (int q = 0; q < 4; q++)
            blk[o + q * (pl->G == 1 ? pl->PB : 1)] = (uint8_t)v[q];
        }
        sum += v[0] + v[1] + v[2] + v[3];
        o += pl->G == 16 ? ((at + i + 4) % 16 ? 4 : (pl->PB - 1) * 16 + 4) : 4 * pl->PB;
      }
      for (; i < run; i++, sp += IHW) { /* C/G not a multiple of 4; padding; padded channels */
        int32_t v = i >= nreal ? 0 : i >= nx ? pad
                  : s16 ? GLOW_Q8_ELEM(*sp, g->xsg) - xz : s8 ? (int8_t)(*sp ^ flip) : (uint8_t)(*sp ^ flip);
        qmcu_put(blk, pl, c, at + i, n, v);
        sum += v;
      }
      at += run;
      if (++kw == g->KW) {
        kw = 0;
        kh++;
      }
    }
  } else {
    /* W as in ONNX: runs of taps of one channel, value by value (C/G is 1 or 2 here, or W is an input). */
    int32_t ch = k0 / g->ksz, tap = k0 % g->ksz, kh = tap / g->KW, kw = tap % g->KW;
    for (int32_t i = 0; i < n; i++) {
      int32_t ih = ih0 + kh * g->dh, iw = iw0 + kw * g->dw, v = pad;
      if ((uint32_t)ih < (uint32_t)g->IH && (uint32_t)iw < (uint32_t)g->IW) {
        uint8_t x = xg[ch * IHW + ih * g->IW + iw];
        v = s16 ? GLOW_Q8_ELEM(x, g->xsg) - xz : s8 ? (int8_t)(x ^ flip) : (uint8_t)(x ^ flip);
      }
      qmcu_put(blk, pl, c, i, n, v);
      sum += v;
      if (++kw == g->KW) {
        kw = 0;
        if (++kh == g->KH) {
          kh = 0;
          ch++;
        }
      }
    }
  }
  for (int32_t i = n; i < (n + 15) / 16 * 16; i++)
    qmcu_put(blk, pl, c, i, n, 0);
  return sum;
}

/* Plain: sums of weight row w (int8, or uint8 with !wsg) with the 2 byte
 * columns (unsigned) of the block at x over n values. Unrolled on Thumb-2
 * (loads at constant offsets); not on Armv6-M, whose 8 registers then spill. */
#if defined(__ARM_ARCH_ISA_THUMB) && __ARM_ARCH_ISA_THUMB == 1
#define QMCU_PLAIN_UNROLL _Pragma("clang loop unroll(disable)")
#else
#define QMCU_PLAIN_UNROLL _Pragma("clang loop unroll_count(4)")
#endif
static inline void qmcu_dot12(int32_t *s, const uint8_t *w, const uint8_t *x, int32_t n, int wsg) {
  int32_t a0 = 0, a1 = 0;
  QMCU_PLAIN_UNROLL
  for (int32_t k = 0; k < n; k++, x += 2) {
    int32_t u = GLOW_Q8_ELEM(w[k], wsg);
    a0 += u * x[0];
    a1 += u * x[1];
  }
  s[0] = a0;
  s[1] = a1;
}

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* DSP: sums of weight row w (int8, or uint8 with !wsg) with the 4 int16
 * columns of the block at x (8-byte aligned) over n values. */
static inline void qmcu_dot14_dsp(int32_t *s, const uint8_t *w, const int16_t *x, int32_t n, int wsg) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
#pragma clang loop unroll(disable) /* unrolled, the weights are kept (spilled) across columns */
  for (int32_t q = n >> 2; q > 0; q--, w += 4, x += 16) {
    uint32_t wv = qmcu_load32(w);
    const uint64_t *xv = (const uint64_t *)__builtin_assume_aligned(x, 8);
    uint64_t x0 = xv[0], x1 = xv[1], x2 = xv[2], x3 = xv[3];
    int32_t we = qmcu_even16(wv, wsg), wo = qmcu_odd16(wv, wsg);
    a0 = __smlad(we, (int32_t)x0, __smlad(wo, (int32_t)(x0 >> 32), a0));
    a1 = __smlad(we, (int32_t)x1, __smlad(wo, (int32_t)(x1 >> 32), a1));
    a2 = __smlad(we, (int32_t)x2, __smlad(wo, (int32_t)(x2 >> 32), a2));
    a3 = __smlad(we, (int32_t)x3, __smlad(wo, (int32_t)(x3 >> 32), a3));
  }
  for (int32_t r = 0; r < (n & 3); r++) { /* past K rounded down to 4: in order */
    int32_t u = GLOW_Q8_ELEM(w[r], wsg);
    a0 += u * x[r];
    a1 += u * x[4 + r];
    a2 += u * x[8 + r];
    a3 += u * x[12 + r];
  }
  s[0] = a0;
  s[1] = a1;
  s[2] = a2;
  s[3] = a3;
}
#endif

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
/* MVE: sums of the int8 weight row w with the 4 int8 columns of the block at
 * x over n values (zeros past n); *ws += the row's sum where ws. */
static inline void qmcu_dot14_mve(int32_t *s, const int8_t *w, const int8_t *x, int32_t n, int32_t *ws) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, sw = ws ? *ws : 0;
#pragma clang loop unroll(disable) /* unrolled, the weights are kept (spilled) across columns */
  for (int32_t k = 0; k < n; k += 16, x += 64) {
    mve_pred16_t pr = vctp8q((uint32_t)(n - k));
    int8x16_t wv = vldrbq_z_s8(w + k, pr);
    if (ws)
      sw = vaddvaq_s8(sw, wv);
    a0 = vmladavaq_s8(a0, wv, vldrbq_s8(x));
    a1 = vmladavaq_s8(a1, wv, vldrbq_s8(x + 16));
    a2 = vmladavaq_s8(a2, wv, vldrbq_s8(x + 32));
    a3 = vmladavaq_s8(a3, wv, vldrbq_s8(x + 48));
  }
  if (ws)
    *ws = sw;
  s[0] = a0;
  s[1] = a1;
  s[2] = a2;
  s[3] = a3;
}
#endif

/* A band's state for the steps below. */
typedef struct {
  qmcu_geo g;
  qmcu_plan pl;
  uint8_t *const *t;
  int32_t OHW, xz, yz, chunked, np, k0, kn;
  float xscale, ys;
  const int32_t *xsum;
  int32_t *acc; /* chunked: the sums of channel m (of the block), column j at m P + j */
  /* With few channels, once per group: each one's multiplier and weights' sum (byte columns). */
  const float *mults;
  const int32_t *wsums;
} qmcu_band;


static inline float qmcu_mult(const qmcu_band *bd, int32_t ch) {
  return glow_q_multiplier(bd->xscale, ((const float *)bd->t[5])[bd->g.ws_pc ? ch : 0], bd->ys);
}

/* The sum of n weights of row w. */
static inline int32_t qmcu_wsum(const uint8_t *w, int32_t n, int wsg) {
  int32_t s = 0;
  for (int32_t k = 0; k < n; k++)
    s += GLOW_Q8_ELEM(w[k], wsg);
  return s;
}

/* Channel ch's requantization, weight zero point and bias. */
static inline void qmcu_channel(const qmcu_band *bd, int32_t ch, qmcu_rq *rq, int32_t *wz, int32_t *bias) {
  const int32_t *b = (const int32_t *)bd->t[9];
  float m = bd->mults ? bd->mults[ch % bd->g.Mg] : qmcu_mult(bd, ch);
  *rq = qmcu_rq_of(m, bd->yz, bd->g.ysg);
  *wz = glow_q_zero(bd->t[6], bd->g.wz_pc ? ch : 0, bd->g.wsg);
  *bias = b ? b[ch] : 0;
}

/* What a channel adds to each of its sums: the bias and, for byte columns,
 * - xz' sum w + K xz' wz (the columns' part, - wz sum x', goes with each). */
static inline int32_t qmcu_corr(const qmcu_band *bd, int32_t bias, int32_t wz, int32_t wsum) {
  if (bd->pl.form == QMCU_COL_S16)
    return bias;
  return bias - bd->xz * wsum + bd->g.Cg * bd->g.ksz * bd->xz * wz;
}

/* Channel ch (m in the block): every column of the band's chunk, PB at a
 * time; yc: the channel's output at the band. Byte columns: *wsum, the
 * weights' sum over the chunks before, then with this one's (the whole row's
 * from the channel table when there is one). */
static inline void qmcu_row(const qmcu_band *bd, const uint8_t *cols, int32_t ch, int32_t m, int32_t *wsum,
                            uint8_t *yc) {
  const qmcu_geo *g = &bd->g;
  const qmcu_plan *pl = &bd->pl;
  const uint8_t *w = bd->t[4] + ch * g->K + bd->k0;
  qmcu_rq rq;
  int32_t wz, bias, ws = *wsum;
  qmcu_channel(bd, ch, &rq, &wz, &bias);
  if (bd->wsums)
    ws = bd->wsums[ch % g->Mg];
  else if (pl->form == QMCU_COL_U8)
    ws += qmcu_wsum(w, bd->kn, g->wsg);
  for (int32_t j = 0; j < bd->np; j += pl->PB) {
    int32_t s[4];
    const uint8_t *blk = cols + j * pl->KP * pl->elem;
    if (pl->form == QMCU_COL_U8) {
      qmcu_dot12(s, w, blk, bd->kn, g->wsg);
    } else if (pl->form == QMCU_COL_S16) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
      qmcu_dot14_dsp(s, w, (const int16_t *)blk, bd->kn, g->wsg);
#endif
    } else {
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
      if (!bd->wsums)
        ws = *wsum;
      qmcu_dot14_mve(s, (const int8_t *)w, (const int8_t *)blk, bd->kn, bd->wsums ? 0 : &ws);
#endif
    }
    int32_t corr = qmcu_corr(bd, bias, wz, ws);
    for (int32_t c = 0; c < pl->PB; c++) {
      if (bd->chunked) {
        int32_t *a = bd->acc + m * pl->P + j + c;
        *a = bd->k0 ? *a + s[c] : s[c];
      }
      s[c] += corr - wz * bd->xsum[j + c];
    }
    if (!bd->chunked)
      qmcu_rq_put4(yc + j, &rq, s, qmcu_min(pl->PB, bd->np - j));
  }
  *wsum = ws;
}

static inline void qmcu_conv_im2col(uint8_t *const *t, const int64_t *p) {
  qmcu_band bd;
  bd.g = qmcu_geo_of(p);
  bd.pl = qmcu_plan_of(&bd.g);
  bd.t = t;
  const qmcu_geo *g = &bd.g;
  const qmcu_plan *pl = &bd.pl;
  int32_t IHW = g->IH * g->IW;
  bd.OHW = g->OH * g->OW;
  bd.chunked = pl->KC < g->K;
  bd.xscale = *(const float *)t[2];
  bd.ys = *(const float *)t[7];
  /* Byte columns: x' unsigned (plain: int8 x and its zero point flipped) or
   * signed (MVE: uint8 x flipped). */
  uint8_t flip = pl->form == QMCU_COL_S16 || (pl->form == QMCU_COL_U8) != g->xsg ? 0 : 0x80;
  bd.xz = glow_q_zero(t[3], 0, g->xsg) + (!flip ? 0 : g->xsg ? 128 : -128);
  bd.yz = glow_q_zero(t[8], 0, g->ysg);
  /* The panel: the columns, and with chunks the sums waiting in its second half. */
  uint8_t buf[2 * QMCU_BUF] __attribute__((aligned(16)));
  int32_t xsum[QMCU_PMAX], wsums[QMCU_TABLE]; /* the table's, or a block's sums over the chunks */
  float mults[QMCU_TABLE];
  bd.acc = (int32_t *)(buf + QMCU_BUF);
  bd.xsum = xsum;
  int table = g->Mg <= QMCU_TABLE;
  bd.mults = table ? mults : 0;
  bd.wsums = table && pl->form != QMCU_COL_S16 ? wsums : 0;
  for (int32_t n = 0; n < g->N; n++)
    for (int32_t gi = 0; gi < g->G; gi++) {
      const uint8_t *xg = t[1] + (n * g->G + gi) * g->Cg * IHW;
      for (int32_t m = 0; table && m < g->Mg; m++) {
        int32_t ch = gi * g->Mg + m;
        mults[m] = qmcu_mult(&bd, ch);
        wsums[m] = qmcu_wsum(t[4] + ch * g->K, g->K, g->wsg);
      }
      for (int32_t pos0 = 0; pos0 < bd.OHW; pos0 += pl->P) {
        bd.np = qmcu_min(pl->P, bd.OHW - pos0);
        for (int32_t mb0 = 0; mb0 < g->Mg; mb0 += pl->MB) {
          int32_t mbn = qmcu_min(pl->MB, g->Mg - mb0);
          uint8_t *yb = t[0] + ((n * g->G + gi) * g->Mg + mb0) * bd.OHW + pos0;
          for (bd.k0 = 0; bd.k0 < g->K; bd.k0 += pl->KC) {
            bd.kn = qmcu_min(pl->KC, g->K - bd.k0);
            /* Whole blocks of columns (the last position again past the band's end). */
            for (int32_t j = 0, pos = pos0; j < (bd.np + pl->PB - 1) / pl->PB * pl->PB; j++) {
              int32_t oh = pos / g->OW, ow = pos % g->OW;
              int32_t sj = qmcu_im2col(buf + (j - j % pl->PB) * pl->KP * pl->elem, j % pl->PB, pl, g, xg, oh, ow, bd.k0,
                                       bd.kn, bd.xz, flip);
              xsum[j] = bd.k0 ? xsum[j] + sj : sj;
              pos += pos + 1 < bd.OHW;
            }
            for (int32_t m = 0; m < mbn; m++) {
              int32_t ws = bd.k0 && !bd.wsums ? wsums[m] : 0;
              qmcu_row(&bd, buf, gi * g->Mg + mb0 + m, m, &ws, yb + m * bd.OHW);
              if (bd.chunked && !bd.wsums)
                wsums[m] = ws;
            }
          }
          for (int32_t m = 0; bd.chunked && m < mbn; m++) { /* the sums of every chunk are in */
            qmcu_rq rq;
            int32_t wz, bias;
            qmcu_channel(&bd, gi * g->Mg + mb0 + m, &rq, &wz, &bias);
            int32_t corr = qmcu_corr(&bd, bias, wz, wsums[bd.wsums ? mb0 + m : m]);
            for (int32_t j = 0; j < bd.np; j++)
              yb[m * bd.OHW + j] = qmcu_rq_put(&rq, bd.acc[m * pl->P + j] + corr - wz * xsum[j]);
          }
        }
      }
    }
}

/* ---- Depthwise ---- */

#define QMCU_DW_TAPS 64 /* KH x KW, at most */

/* The band buffer: rows of the padded input, each `phases` phase rows of JW
 * columns (MVE: the horizontal stride's; 1 otherwise), R output rows a band,
 * 0 where a row or the taps do not fit. Bytes (raw x, xz for padding), or
 * with DSP int16 x - xz (0 for padding), read two at a time, taps kw and
 * kw + 1 (dilation 1; the last tap of an odd row reads one past it). */
typedef struct {
  int32_t mve, dsp, elem, phases, JW, pitch, R;
} qmcu_dwplan;

static inline qmcu_dwplan qmcu_dwplan_of(const qmcu_geo *g) {
  qmcu_dwplan d;
  d.mve = QMCU_MVE;
  d.dsp = !d.mve && QMCU_DSP && g->dw == 1;
  d.elem = d.dsp ? 2 : 1;
  d.phases = d.mve ? g->sw : 1;
  if (d.mve)
    d.JW = (g->OW + 3) / 4 * 4 + (g->KW - 1) * g->dw / g->sw;
  else
    d.JW = (g->OW - 1) * g->sw + (g->KW - 1) * g->dw + 1 + d.dsp;
  d.JW = (d.JW + 3) / 4 * 4;
  d.pitch = d.phases * d.JW;
  d.R = g->ksz > QMCU_DW_TAPS ? 0
                              : (int32_t)glow_nn_band_rows(2 * QMCU_BUF / d.elem, d.pitch, (g->KH - 1) * g->dh + 1,
                                                           g->sh, g->OH);
  return d;
}

/* One row of the band: x's row ih (NULL: padding) with the padding around it,
 * phase by phase. */
static inline void qmcu_dw_row(uint8_t *dst, const uint8_t *xr, const qmcu_geo *g, const qmcu_dwplan *d, int32_t xz) {
  int16_t *d16 = (int16_t *)dst;
  for (int32_t ph = 0; ph < d->phases; ph++, dst += d->JW, d16 += d->JW) {
    int64_t lo = 0, hi = 0;
    if (xr)
      glow_nn_range(ph - g->pl, d->phases, g->IW, d->JW, &lo, &hi);
    const uint8_t *s = xr + (int32_t)lo * d->phases + ph - g->pl;
    int32_t j = 0;
    if (d->dsp) {
      for (; j < (int32_t)lo; j++)
        d16[j] = 0;
      for (; j < (int32_t)hi; j++, s += d->phases)
        d16[j] = (int16_t)(GLOW_Q8_ELEM(*s, g->xsg) - xz);
      for (; j < d->JW; j++)
        d16[j] = 0;
    } else {
      for (; j < (int32_t)lo; j++)
        dst[j] = (uint8_t)xz;
      for (; j < (int32_t)hi; j++, s += d->phases)
        dst[j] = *s;
      for (; j < d->JW; j++)
        dst[j] = (uint8_t)xz;
    }
  }
}

static inline void qmcu_conv_dw(uint8_t *const *t, const qmcu_geo *gp, const qmcu_dwplan *dp) {
  qmcu_geo g = *gp;
  qmcu_dwplan d = *dp;
  uint8_t *y = t[0];
  const uint8_t *x = t[1], *w = t[4];
  const int32_t *b = (const int32_t *)t[9];
  const float *ws = (const float *)t[5];
  float xscale = *(const float *)t[2], ys = *(const float *)t[7];
  int32_t OHW = g.OH * g.OW, IHW = g.IH * g.IW, KP = (g.KW + 1) / 2;
  int32_t xz = glow_q_zero(t[3], 0, g.xsg), yz = glow_q_zero(t[8], 0, g.ysg);
  int32_t nrow = (d.R - 1) * g.sh + (g.KH - 1) * g.dh + 1;
  uint8_t buf[2 * QMCU_BUF] __attribute__((aligned(16)));
  const int16_t *b16 = (const int16_t *)buf;
  for (int32_t u = 0; u < g.N * g.G; u++) {
    int32_t gi = u % g.G;
    const uint8_t *xc = x + u * IHW;
    for (int32_t oh0 = 0; oh0 < g.OH; oh0 += d.R) {
      int32_t rows = qmcu_min(d.R, g.OH - oh0);
      for (int32_t lr = 0; lr < nrow; lr++) {
        int32_t ih = oh0 * g.sh - g.pt + lr;
        qmcu_dw_row(buf + lr * d.pitch * d.elem, (uint32_t)ih < (uint32_t)g.IH ? xc + ih * g.IW : 0, &g, &d, xz);
      }
      for (int32_t m = 0; m < g.Mg; m++) {
        int32_t ch = gi * g.Mg + m;
        const uint8_t *wm = w + ch * g.ksz;
        int32_t wz = glow_q_zero(t[6], g.wz_pc ? ch : 0, g.wsg), wsum = 0;
        int16_t wk[QMCU_DW_TAPS];
        for (int32_t i = 0; i < g.ksz; i++) {
          wk[i] = (int16_t)(GLOW_Q8_ELEM(wm[i], g.wsg) - wz);
          wsum += wk[i];
        }
        /* Bytes: x holds xz where it pads, and its part of the sums goes with the bias. */
        int32_t corr = (b ? b[ch] : 0) - (d.dsp ? 0 : xz * wsum);
        qmcu_rq rq = qmcu_rq_of(glow_q_multiplier(xscale, ws[g.ws_pc ? ch : 0], ys), yz, g.ysg);
        uint8_t *yc = y + (u * g.Mg + m) * OHW + oh0 * g.OW;
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
        if (d.mve) {
          for (int32_t r = 0; r < rows; r++)
            for (int32_t ow0 = 0; ow0 < g.OW; ow0 += 4) {
              int32x4_t a = vdupq_n_s32(corr);
              for (int32_t kh = 0; kh < g.KH; kh++)
                for (int32_t kw = 0; kw < g.KW; kw++) {
                  int32_t c = kw * g.dw;
                  const uint8_t *s = buf + (r * g.sh + kh * g.dh) * d.pitch + c % g.sw * d.JW + c / g.sw + ow0;
                  int32x4_t xv = g.xsg ? vldrbq_s32((const int8_t *)s) : vreinterpretq_s32_u32(vldrbq_u32(s));
                  a = vmlaq_n_s32(a, xv, wk[kh * g.KW + kw]);
                }
              qmcu_requant4(yc + r * g.OW + ow0, a, vdupq_n_f32(rq.m), yz, g.ysg, g.OW - ow0);
            }
          continue;
        }
#endif
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
        if (d.dsp) {
          int32_t wp[QMCU_DW_TAPS]; /* (w[kw], w[kw + 1]) for even kw, w[KW] = 0 */
          for (int32_t kh = 0; kh < g.KH; kh++)
            for (int32_t q = 0; q < KP; q++) {
              int32_t w1 = 2 * q + 1 < g.KW ? wk[kh * g.KW + 2 * q + 1] : 0;
              wp[kh * KP + q] = (int32_t)((uint32_t)(uint16_t)wk[kh * g.KW + 2 * q] | (uint32_t)w1 << 16);
            }
          for (int32_t r = 0; r < rows; r++)
            for (int32_t ow = 0; ow < g.OW; ow++) {
              int32_t a = corr;
              for (int32_t kh = 0; kh < g.KH; kh++) {
                const int16_t *s = b16 + (r * g.sh + kh * g.dh) * d.pitch + ow * g.sw;
                for (int32_t q = 0; q < KP; q++)
                  a = __smlad((int32_t)qmcu_load32(s + 2 * q), wp[kh * KP + q], a);
              }
              yc[r * g.OW + ow] = qmcu_rq_put(&rq, a);
            }
          continue;
        }
#endif
        (void)KP;
        (void)b16;
        for (int32_t r = 0; r < rows; r++)
          for (int32_t ow = 0; ow < g.OW; ow++) {
            int32_t a = corr;
            for (int32_t kh = 0; kh < g.KH; kh++) {
              const uint8_t *s = buf + (r * g.sh + kh * g.dh) * d.pitch + ow * g.sw;
              for (int32_t kw = 0; kw < g.KW; kw++)
                a += GLOW_Q8_ELEM(s[kw * g.dw], g.xsg) * wk[kh * g.KW + kw];
            }
            yc[r * g.OW + ow] = qmcu_rq_put(&rq, a);
          }
      }
    }
  }
}

/* Whether the paths here take the convolution (the caller's run otherwise). */
static inline int qmcu_conv_takes(const int64_t *p) {
  if (!qmcu_conv_applies(p))
    return 0;
  qmcu_geo g = qmcu_geo_of(p);
  return g.Cg > 1 || qmcu_dwplan_of(&g).R > 0;
}

static inline void qmcu_conv(uint8_t *const *t, const int64_t *p) {
  qmcu_geo g = qmcu_geo_of(p);
  qmcu_dwplan d = qmcu_dwplan_of(&g);
  if (g.Cg == 1)
    qmcu_conv_dw(t, &g, &d);
  else
    qmcu_conv_im2col(t, p);
}
