/* QLinearConv's pairs path (kernels/qconv.c), for targets whose int8 dot
 * product is slow (glow_qdot_pairs(): x86 without VNNI). Its step is one
 * vpmaddwd: int16 x int16 products of 2 input channels, summed in an int32
 * lane (glow_qdot2), where glow_qdot_portable widens 4 bytes to int32 and
 * multiplies 4 times.
 *
 * The same band scheme as qconv_rows (qconv.c says how the wide grid and the
 * stride phases work), with int16 pairs with the zero points taken off:
 *   buf[kh][c2][phase][j] = (x[2 c2] - xz, x[2 c2 + 1] - xz)
 * for a chunk of channel pairs c2 (0 for padding and for a channel past C/G),
 * and the weights of MR output channels and the chunk widened the same way,
 *   wb[r][tap][c2] = (w[2 c2] - wz, w[2 c2 + 1] - wz),
 * so the sums need no zero-point terms. |x - xz| and |w - wz| are at most
 * 255: a pair sum fits in int32 exactly, and so does a whole dot product (as
 * on the other path). A pair's first value is its word's low half, which is
 * its first in memory on these (little-endian) targets. The int32 sums of a
 * block of output channels over the band's positions stay on the stack across
 * chunks, and are requantized when the last chunk is in. */

#define QCONV2_ACC GLOW_STACK_PANEL_FLOATS        /* int32 sums: a block of output channels x positions */
#define QCONV2_WBUF (GLOW_STACK_PANEL_FLOATS / 4) /* widened weight pairs: MR x taps x a chunk */
#define QCONV2_POS 256                            /* positions (wide grid) of a band, at most */
#define QCONV2_MIN_POS 64                         /* ... and at least, where the rows have them */
#define QCONV2_WIDE_MR 8                          /* register tiles: output channels x vectors of 16 positions */
#define QCONV2_WIDE_PV 2
#define QCONV2_NARROW_MR 6
#define QCONV2_NARROW_PV 1

static inline uint32_t qconv2_pair(int32_t a, int32_t b) { return (uint32_t)(uint16_t)a | (uint32_t)(uint16_t)b << 16; }

typedef uint8_t qconv2_u8x16 __attribute__((vector_size(16), aligned(1)));
typedef int8_t qconv2_s8x16 __attribute__((vector_size(16), aligned(1)));
typedef int16_t qconv2_h16 __attribute__((vector_size(32), aligned(4)));
typedef int16_t qconv2_h32 __attribute__((vector_size(64), aligned(4)));

/* 16 bytes (int8 with sg) as int16, less z, into *o. Wider vectors go by pointer
 * (by value they would change the ABI on targets without AVX). */
static inline void qconv2_less_zero(qconv2_h16 *o, qconv2_u8x16 v, int sg, int32_t z) {
  *o = (sg ? __builtin_convertvector((qconv2_s8x16)v, qconv2_h16) : __builtin_convertvector(v, qconv2_h16)) -
       (int16_t)z;
}

/* 16 pairs (a[i], b[i]) as 16 words. */
static inline void qconv2_interleave(uint32_t *dst, const qconv2_h16 *a, const qconv2_h16 *b) {
  *(qconv2_h32 *)dst = __builtin_shufflevector(*a, *b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23, 8, 24,
                                               9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
}

/* The register tile over one chunk: acc rows r (stride P) at positions
 * [16 v0, 16 (v0 + PV)) += the chunk's pairs of buf times wb[r]; the first
 * chunk starts from 0. */
#define QCONV2_TILE(NAME, MR, PV)                                                                                      \
  static inline void NAME(int32_t *acc, int64_t P, const uint32_t *buf, const uint32_t *wb, const qconv_geo *g,        \
                          int64_t v0, int first) {                                                                     \
    glow_qi16 a[MR][PV];                                                                                               \
    for (int r = 0; r < MR; r++)                                                                                       \
      for (int v = 0; v < PV; v++)                                                                                     \
        a[r][v] = first ? (glow_qi16){0} : *(const glow_qi16 *)(acc + r * P + (v0 + v) * 16);                         \
    for (int64_t kh = 0, tap = 0; kh < g->KH; kh++)                                                                    \
      for (int64_t kw = 0; kw < g->KW; kw++, tap++) {                                                                  \
        int64_t ph = (kw * g->dw) % g->sw, off = (kw * g->dw) / g->sw;                                                 \
        const uint32_t *xp = buf + (kh * g->Cq * g->sw + ph) * g->SL + v0 * 16 + off;                                 \
        for (int64_t c = 0; c < g->Cq; c++, xp += g->sw * g->SL) {                                                    \
          glow_qh32 xv[PV];                                                                                            \
          for (int v = 0; v < PV; v++)                                                                                 \
            xv[v] = *(const glow_qh32 *)(xp + 16 * v);                                                                 \
          for (int r = 0; r < MR; r++) {                                                                               \
            int32_t w2 = (int32_t)wb[(r * g->ksz + tap) * g->Cq + c];                                                 \
            for (int v = 0; v < PV; v++)                                                                               \
              glow_qdot2(&a[r][v], &xv[v], w2);                                                                        \
          }                                                                                                            \
        }                                                                                                              \
      }                                                                                                                \
    for (int r = 0; r < MR; r++)                                                                                       \
      for (int v = 0; v < PV; v++)                                                                                     \
        *(glow_qi16 *)(acc + r * P + (v0 + v) * 16) = a[r][v];                                                         \
  }

QCONV2_TILE(qconv2_tile_wide, QCONV2_WIDE_MR, QCONV2_WIDE_PV)
QCONV2_TILE(qconv2_tile_narrow, QCONV2_NARROW_MR, QCONV2_NARROW_PV)

/* One band row of a channel pair: dst[j] = (x0[j sw] - xz, x1[j sw] - xz) for j
 * in [j0, j1), 0 elsewhere up to jn; x1 NULL (a channel past C/G) gives 0 in
 * the high halves. sg: int8 x. Unit strides go 16 columns at a time. */
static inline void qconv2_pack_row(uint32_t *dst, const uint8_t *x0, const uint8_t *x1, int64_t j0, int64_t j1,
                                   int64_t jn, int64_t sw, int sg, int32_t xz) {
  int64_t j = 0;
  for (; j < j0; j++)
    dst[j] = 0;
  if (sw == 1)
    for (; j + 16 <= j1; j += 16) {
      qconv2_h16 a, b = {0};
      qconv2_less_zero(&a, *(const qconv2_u8x16 *)(x0 + j), sg, xz);
      if (x1)
        qconv2_less_zero(&b, *(const qconv2_u8x16 *)(x1 + j), sg, xz);
      qconv2_interleave(dst + j, &a, &b);
    }
  for (; j < j1; j++)
    dst[j] = qconv2_pair(GLOW_Q8_ELEM(x0[j * sw], sg) - xz, x1 ? GLOW_Q8_ELEM(x1[j * sw], sg) - xz : 0);
  for (; j < jn; j++)
    dst[j] = 0;
}

/* n weights (w - wz) as int16, into n / 2 words of pairs. W holds C/G rounded
 * up to 4 channels (compiler/passes/pack-weights.c): a pair's second channel
 * is always there, and where it is past C/G its x is 0. */
static inline void qconv2_widen(uint32_t *dst, const int8_t *w, int64_t n, int32_t wz) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    qconv2_less_zero((qconv2_h16 *)(dst + i / 2), *(const qconv2_u8x16 *)(w + i), 1, wz);
  for (; i < n; i += 2)
    dst[i / 2] = qconv2_pair(w[i] - wz, w[i + 1] - wz);
}

/* The band geometry for rows per band R (in closed form, so that it folds to
 * a constant): the positions P, the channel pairs per chunk and the output
 * channels per block; 0 where it does not apply (qconv_band_applies, and
 * bands or chunks that do not fit). */
typedef struct {
  int64_t R, P, cq, mb;
} qconv2_plan;

static inline qconv2_plan qconv2_plan_for(const int64_t *p, int wide) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *d = qa->w.d;
  qconv2_plan pl = {0, 0, 0, 0};
  if (!qconv_band_applies(p))
    return pl;
  int64_t mr = wide ? QCONV2_WIDE_MR : QCONV2_NARROW_MR, pv = wide ? QCONV2_WIDE_PV : QCONV2_NARROW_PV;
  int64_t Mg = qa->Mg, c2 = (qa->Cg + 1) / 2, ksz = k[1] * k[2], off = (k[2] - 1) * d[2] / s[2], rw = out[2] + off;
  int64_t mgr = (Mg + mr - 1) / mr * mr, cap = QCONV2_ACC / mgr;
  cap = cap < QCONV2_MIN_POS ? QCONV2_MIN_POS : cap > QCONV2_POS ? QCONV2_POS : cap;
  int64_t R = cap / rw < 1 ? 1 : cap / rw;
  R = R < out[1] ? R : out[1];
  int64_t P = ((R * rw + 15) / 16 + pv - 1) / pv * pv * 16;
  int64_t cq = (QCONV_BUF / 4) / (k[1] * s[2] * (P + off)), cw = QCONV2_WBUF / (mr * ksz);
  cq = cq < cw ? cq : cw;
  cq = cq < c2 ? cq : c2;
  int64_t mbmax = QCONV2_ACC / P / mr * mr;
  if (cq < 1 || mbmax < mr)
    return pl;
  int64_t nblk = (Mg + mbmax - 1) / mbmax, mb = ((Mg + nblk - 1) / nblk + mr - 1) / mr * mr;
  pl.R = R;
  pl.P = P;
  pl.cq = cq;
  pl.mb = mb;
  return pl;
}

/* Part `part` of `nparts`: a range of each group's output channels (whole tiles). */
static inline void qconv_pairs(uint8_t *const *t, const int64_t *p, qconv2_plan pl, int wide, int64_t part,
                               int64_t nparts) {
  QCONV_BAND_ARGS(t, p);
  int64_t R = pl.R, P = pl.P;
  int mr = wide ? QCONV2_WIDE_MR : QCONV2_NARROW_MR, pv = wide ? QCONV2_WIDE_PV : QCONV2_NARROW_PV;
  int64_t tiles = (Mg + mr - 1) / mr, m_lo = tiles * part / nparts * mr, m_hi = tiles * (part + 1) / nparts * mr;
  m_hi = m_hi < Mg ? m_hi : Mg;
  qconv_geo geo = qconv_geo_of(p);
  geo.SL = P + (geo.KW - 1) * geo.dw / geo.sw;
  int64_t C2 = (Cg + 1) / 2;
  int32_t xz = glow_q_zero(t[3], 0, xsg), yz = glow_q_zero(t[8], 0, ysg);
  uint32_t buf[QCONV_BUF / 4] __attribute__((aligned(64)));
  uint32_t wb[QCONV2_WBUF] __attribute__((aligned(64)));
  int32_t acc[QCONV2_ACC] __attribute__((aligned(64)));
  for (int64_t n = 0; n < N; n++)
    for (int64_t g = 0; g < G; g++)
      for (int64_t mb0 = m_lo; mb0 < m_hi; mb0 += pl.mb) {
        int64_t mbn = m_hi - mb0 < pl.mb ? m_hi - mb0 : pl.mb;
        for (int64_t oh0 = 0; oh0 < OH; oh0 += R) {
          int64_t rows = OH - oh0 < R ? OH - oh0 : R, nv = (rows * geo.RW + 15) / 16;
          for (int64_t c0 = 0; c0 < C2; c0 += pl.cq) {
            geo.Cq = C2 - c0 < pl.cq ? C2 - c0 : pl.cq;
            /* The chunk's band. */
            for (int64_t kh = 0; kh < geo.KH; kh++)
              for (int64_t c = 0; c < geo.Cq; c++)
                for (int64_t ph = 0; ph < geo.sw; ph++) {
                  uint32_t *dst = buf + ((kh * geo.Cq + c) * geo.sw + ph) * geo.SL;
                  int64_t ci = 2 * (c0 + c);
                  for (int64_t r = 0; r * geo.RW < geo.SL; r++) {
                    int64_t ih = (oh0 + r) * sh + kh * dh - pb[1], j0 = 0, j1 = 0;
                    if (r < rows && (uint64_t)ih < (uint64_t)IH)
                      glow_nn_range(ph - pb[2], geo.sw, IW, geo.RW, &j0, &j1);
                    int64_t jn = geo.SL - r * geo.RW < geo.RW ? geo.SL - r * geo.RW : geo.RW;
                    const uint8_t *x0 = x + ((n * G + g) * Cg + ci) * IH * IW + ih * IW + ph - pb[2];
                    qconv2_pack_row(dst + r * geo.RW, j1 > j0 ? x0 : 0, j1 > j0 && ci + 1 < Cg ? x0 + IH * IW : 0,
                                    j0, j1 > j0 ? j1 : 0, jn, geo.sw, xsg, xz);
                  }
                }
            for (int64_t m0 = 0; m0 < mbn; m0 += mr) {
              int64_t mn = mbn - m0 < mr ? mbn - m0 : mr;
              /* The weight pairs of the block's channels and the chunk. */
              for (int r = 0; r < mr; r++) {
                int64_t ch = g * Mg + mb0 + m0 + (r < mn ? r : mn - 1);
                const int8_t *wr = w + ch * geo.ksz * geo.c4;
                int32_t wz = t[6] ? ((const int8_t *)t[6])[wz_pc ? ch : 0] : 0;
                for (int64_t tap = 0; tap < geo.ksz; tap++)
                  qconv2_widen(wb + (r * geo.ksz + tap) * geo.Cq, wr + tap * geo.c4 + 2 * c0, 2 * geo.Cq, wz);
              }
              for (int64_t v0 = 0; v0 < nv; v0 += pv) {
                if (wide)
                  qconv2_tile_wide(acc + m0 * P, P, buf, wb, &geo, v0, c0 == 0);
                else
                  qconv2_tile_narrow(acc + m0 * P, P, buf, wb, &geo, v0, c0 == 0);
              }
            }
          }
          for (int64_t m = 0; m < mbn; m++) {
            int64_t ch = g * Mg + mb0 + m; /* of all groups' */
            float mult = glow_q_multiplier(xscale, ws[ws_pc ? ch : 0], ys);
            int32_t bias = b ? b[ch] : 0;
            for (int64_t r0 = 0; r0 < rows; r0++) {
              uint8_t *yr = y + (n * G * Mg + ch) * OH * OW + (oh0 + r0) * OW;
              const int32_t *ar = acc + m * P + r0 * geo.RW;
              for (int64_t ow = 0; ow < OW; ow++)
                yr[ow] = glow_q_saturate((float)(ar[ow] + bias) * mult, yz, ysg);
            }
          }
        }
      }
}

/* ---- Depthwise (one input channel per group) ----
 * For each channel, a band of input rows is copied into a stack buffer of
 * int16 pairs of one row's columns dw apart, split by the horizontal stride
 * into phases, zero points taken off (0 for padding):
 *   pl[row][phase][j] = (xp[row][j sw + phase], xp[row][j sw + phase + dw])
 * with xp the padded plane. Taps kw and kw + 1 of a run of 16 output
 * columns then read 16 consecutive words at column offset (kw dw) / sw of
 * phase (kw dw) % sw: one glow_qdot2 with the weight pair (w[kw], w[kw + 1])
 * (w[kw + 1] = 0 for the last tap of an odd row). */
#define QCONV2_PLANE (QCONV_BUF / 4) /* words of the band buffer */
#define QCONV2_PLANE_PITCH 1024      /* words of a phase row, at most */
#define QCONV2_PLANE_PAIRS 64        /* weight pairs (rows x pairs of taps), at most */
#define QCONV2_PLANE_ROW 4096        /* bytes of a padded input row */

/* Words of one phase row: the output columns in whole vectors, and the taps' offsets. */
static inline int64_t qconv2_plane_pitch(const int64_t *p) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *d = qa->w.d;
  return (out[2] + 15) / 16 * 16 + (k[2] - 1) * d[2] / s[2];
}

/* Bytes of the padded input row that qconv2_plane_row reads: the last vector
 * of the last phase, dw further, and a 32-byte load for stride 2. */
static inline int64_t qconv2_plane_rowbytes(const int64_t *p) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *in = qa->w.in, *s = qa->w.s, *d = qa->w.d, *pb = qa->w.pb;
  int64_t need = s[2] * (qconv2_plane_pitch(p) + 16) + d[2] + 32;
  return need > pb[2] + in[2] ? need : pb[2] + in[2];
}

/* Output rows per band (a constant, as qconv2_plan_for), 0 where this path does not apply. */
static inline int64_t qconv2_plane_rows(const int64_t *p) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *d = qa->w.d;
  int64_t pw = qconv2_plane_pitch(p);
  if (!qconv_plane_applies(p) || pw > QCONV2_PLANE_PITCH || k[1] * ((k[2] + 1) / 2) > QCONV2_PLANE_PAIRS ||
      qconv2_plane_rowbytes(p) > QCONV2_PLANE_ROW)
    return 0;
  return glow_nn_band_rows(QCONV2_PLANE, s[2] * pw, (k[1] - 1) * d[1] + 1, s[1], out[1]);
}

/* One input row's phase rows: dst[q][j] for q < sw, j < pw (rounded up to
 * 16), from rb: the row with pb zero points before it and enough after. */
static inline void qconv2_plane_row(uint32_t *dst, const uint8_t *rb, int64_t pw, int64_t sw, int64_t dw, int sg,
                                    int32_t xz) {
  typedef uint8_t u8x32 __attribute__((vector_size(32), aligned(1)));
  for (int64_t q = 0; q < sw; q++)
    for (int64_t j = 0; j < pw; j += 16) {
      qconv2_h16 v[2];
      for (int h = 0; h < 2; h++) {
        const uint8_t *src = rb + q + j * sw + h * dw;
        qconv2_u8x16 b;
        if (sw == 1) {
          b = *(const qconv2_u8x16 *)src;
        } else {
          u8x32 a = *(const u8x32 *)src;
          b = __builtin_shufflevector(a, a, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        }
        qconv2_less_zero(&v[h], b, sg, xz);
      }
      qconv2_interleave(dst + q * pw + j, &v[0], &v[1]);
    }
}

/* Part `part` of `nparts`: a range of the (image, channel) pairs. */
static inline void qconv_plane2(uint8_t *const *t, const int64_t *p, int64_t R, int64_t part, int64_t nparts) {
  QCONV_PLANE_ARGS(t, p);
  int64_t KH = k[1], KW = k[2], KP = (KW + 1) / 2, pw = qconv2_plane_pitch(p), rs = sw * pw;
  int64_t nrow = (R - 1) * sh + (KH - 1) * dh + 1, rbn = qconv2_plane_rowbytes(p);
  int32_t xz = glow_q_zero(t[3], 0, xsg), yz = glow_q_zero(t[8], 0, ysg);
  uint32_t buf[QCONV2_PLANE + 16] __attribute__((aligned(64))); /* + the last vector's overrun */
  uint8_t rb[QCONV2_PLANE_ROW];
  for (int64_t u = N * G * part / nparts; u < N * G * (part + 1) / nparts; u++) {
    int64_t n = u / G, g = u % G;
    const uint8_t *xc = x + u * IH * IW;
    for (int64_t oh0 = 0; oh0 < OH; oh0 += R) {
      int64_t rows = OH - oh0 < R ? OH - oh0 : R;
      for (int64_t lr = 0; lr < nrow; lr++) {
        int64_t ih = oh0 * sh - pb[1] + lr;
        if ((uint64_t)ih >= (uint64_t)IH) {
          for (int64_t j = 0; j < rs; j++)
            buf[lr * rs + j] = 0;
          continue;
        }
        qconv_plane_pad_row(rb, xc + ih * IW, IW, pb[2], rbn, (uint8_t)xz, 0);
        qconv2_plane_row(buf + lr * rs, rb, pw, sw, dw, xsg, xz);
      }
      for (int64_t m = 0; m < Mg; m++) {
        int64_t ch = g * Mg + m;
        const uint8_t *wm = t[4] + ch * KH * KW;
        int32_t wz = glow_q_zero(t[6], wz_pc ? ch : 0, wsg), bias = b ? b[ch] : 0;
        glow_qf16 mult = (glow_qf16){0} + glow_q_multiplier(xscale, ws[ws_pc ? ch : 0], ys);
        int32_t wp[QCONV2_PLANE_PAIRS];
        for (int64_t kh = 0; kh < KH; kh++)
          for (int64_t kp = 0; kp < KP; kp++)
            wp[kh * KP + kp] = qconv2_pair(GLOW_Q8_ELEM(wm[kh * KW + 2 * kp], wsg) - wz,
                                           2 * kp + 1 < KW ? GLOW_Q8_ELEM(wm[kh * KW + 2 * kp + 1], wsg) - wz : 0);
        for (int64_t r0 = 0; r0 < rows; r0++) {
          uint8_t *yr = y + (n * G * Mg + ch) * OH * OW + (oh0 + r0) * OW;
          for (int64_t ow0 = 0; ow0 < OW; ow0 += 16) {
            glow_qi16 acc = (glow_qi16){0} + bias;
            for (int64_t kh = 0; kh < KH; kh++) {
              const uint32_t *br = buf + (r0 * sh + kh * dh) * rs + ow0;
              for (int64_t kp = 0; kp < KP; kp++) {
                int64_t c = 2 * kp * dw;
                glow_qdot2(&acc, (const glow_qh32 *)(br + c % sw * pw + c / sw), wp[kh * KP + kp]);
              }
            }
            uint8_t v[16];
            glow_q_saturate16(v, (const int32_t *)&acc, (const float *)&mult, yz, ysg);
            int64_t nw = OW - ow0 < 16 ? OW - ow0 : 16;
            for (int64_t j = 0; j < nw; j++)
              yr[ow0 + j] = v[j];
          }
        }
      }
    }
  }
}
