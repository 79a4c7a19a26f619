/* QLinearConv, N x C x [D x [H x]] W layout; spatial axes right-aligned to 3.
 * int32 sums (int64 for int16: qlinearconv16) of (x - x_zero_point) *
 * (w - w_zero_point), plus the bias, then
 * requantized: saturate(round((float)acc * m) + y_zero_point), m =
 * (x_scale * w_scale) / y_scale in float (kernels/quant.h).
 * t: Y, X, x_scale, x_zero_point, W, w_scale, w_zero_point, y_scale,
 *    y_zero_point, B (zero points and B may be NULL)
 * p: glow_abi_qconv (kernel-abi.h). */
#include "kernels/dw16.h"
#include "kernels/nn-vec.h"
#include "kernels/quant.h"
#include "qdot.h"

/* The parameters: glow_abi_qconv (kernel-abi.h). */
#define QCONV_PAR(p) ((const glow_abi_qconv *)(p))

#define QCONV_CHUNK 256 /* output columns summed at a time */

/* acc[0..8) += w * (x[0..8) - xz), 8 bytes of x widened at once (int8 with sg):
 * left to itself, LLVM built the vector byte by byte (vpinsrb) where rows are
 * shorter than its vector loop (28 columns: mobilenet_v2's int8 depthwise
 * convs at 28x28 took 6 ms each). VEC in QCONV_DIRECT: 8-bit elements. */
static inline void qconv_row8(int32_t *acc, const uint8_t *x, int32_t w, int32_t xz, int sg) {
  typedef uint8_t u8x8 __attribute__((vector_size(8), aligned(1)));
  typedef int8_t i8x8 __attribute__((vector_size(8), aligned(1)));
  typedef int32_t i32x8 __attribute__((vector_size(32), aligned(4)));
  u8x8 b = *(const u8x8 *)x;
  i32x8 v = sg ? __builtin_convertvector((i8x8)b, i32x8) : __builtin_convertvector(b, i32x8);
  *(i32x8 *)acc += w * (v - xz);
}

/* Direct convolution, output row by output row (in chunks of QCONV_CHUNK
 * columns): for each tap, the output columns whose input is inside X form a
 * range, so the innermost loop has no tests. T: the element type, ACC the
 * sums' (int32 for 8 bits, int64 for int16, whose products reach 2^30). Part
 * `part` of `nparts`: a range of the (image, output channel) pairs. */
#define QCONV_DIRECT(NAME, T, ACC, ELEM, ZERO, PUT, VEC)                                                               \
  static inline void NAME(uint8_t *const *t, const int64_t *p, int64_t part, int64_t nparts) {                         \
    T *y = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1], *w = (const T *)t[4];                                                                \
    const int32_t *b = (const int32_t *)t[9];                                                                          \
    const float *ws = (const float *)t[5];                                                                             \
    float xs = *(const float *)t[2], ys = *(const float *)t[7];                                                        \
    const glow_abi_qconv *qa = QCONV_PAR(p);                                                                           \
    int64_t N = qa->N, G = qa->G, Cg = qa->Cg, Mg = qa->Mg, ws_pc = qa->ws_per_channel, wz_pc = qa->wz_per_channel;    \
    int xsg = (qa->signs & GLOW_Q_X_SIGNED) != 0, wsg = (qa->signs & GLOW_Q_W_SIGNED) != 0,                            \
        ysg = (qa->signs & GLOW_Q_Y_SIGNED) != 0;                                                                      \
    const int64_t *in = qa->w.in, *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *d = qa->w.d, *pb = qa->w.pb;          \
    int64_t isz = in[0] * in[1] * in[2], osz = out[0] * out[1] * out[2], ksz = k[0] * k[1] * k[2];                     \
    /* Strides of W between input channels and taps. */                                                                \
    int64_t c4 = (Cg + 3) / 4 * 4, wcs = qa->w_layout ? 1 : ksz, wts = qa->w_layout ? c4 : 1,                          \
            wms = qa->w_layout ? ksz * c4 : Cg * ksz;                                                                  \
    int32_t xz = ZERO(t[3], 0, xsg), yz = ZERO(t[8], 0, ysg);                                                          \
    for (int64_t u = N * G * Mg * part / nparts; u < N * G * Mg * (part + 1) / nparts; u++) {                          \
      int64_t n = u / (G * Mg), mm = u % (G * Mg), g = mm / Mg;                                                        \
      float mult = glow_q_multiplier(xs, ws[ws_pc ? mm : 0], ys);                                                      \
      int32_t wz = ZERO(t[6], wz_pc ? mm : 0, wsg), bias = b ? b[mm] : 0;                                              \
      const T *wm = w + mm * wms;                                                                                      \
      T *yo = y + (n * G * Mg + mm) * osz;                                                                             \
      for (int64_t od = 0; od < out[0]; od++)                                                                          \
        for (int64_t oh = 0; oh < out[1]; oh++)                                                                        \
          for (int64_t ow0 = 0; ow0 < out[2]; ow0 += QCONV_CHUNK) {                                                    \
            int64_t nw = out[2] - ow0 < QCONV_CHUNK ? out[2] - ow0 : QCONV_CHUNK;                                      \
            ACC acc[QCONV_CHUNK];                                                                                      \
            for (int64_t j = 0; j < nw; j++)                                                                           \
              acc[j] = 0;                                                                                              \
            for (int64_t c = 0; c < Cg; c++) {                                                                         \
              const T *xc = x + ((n * G + g) * Cg + c) * isz;                                                          \
              for (int64_t kd = 0; kd < k[0]; kd++) {                                                                  \
                int64_t id = od * s[0] + kd * d[0] - pb[0];                                                            \
                for (int64_t kh = 0; (uint64_t)id < (uint64_t)in[0] && kh < k[1]; kh++) {                              \
                  int64_t ih = oh * s[1] + kh * d[1] - pb[1];                                                          \
                  if ((uint64_t)ih >= (uint64_t)in[1])                                                                 \
                    continue;                                                                                          \
                  const T *xr = xc + (id * in[1] + ih) * in[2];                                                        \
                  for (int64_t kw = 0; kw < k[2]; kw++) {                                                              \
                    ACC wv = ELEM(wm[c * wcs + ((kd * k[1] + kh) * k[2] + kw) * wts], wsg) - wz;                       \
                    int64_t w0, w1, iw0 = kw * d[2] - pb[2];                                                           \
                    glow_nn_range(iw0, s[2], in[2], out[2], &w0, &w1);                                                 \
                    w0 = w0 > ow0 ? w0 : ow0;                                                                          \
                    w1 = w1 < ow0 + nw ? w1 : ow0 + nw;                                                                \
                    int64_t ow = w0;                                                                                   \
                    for (; VEC && s[2] == 1 && ow + 8 <= w1; ow += 8)                                                  \
                      qconv_row8((int32_t *)acc + (ow - ow0), (const uint8_t *)xr + ow + iw0, (int32_t)wv, xz, xsg);   \
                    for (; ow < w1; ow++)                                                                              \
                      acc[ow - ow0] += wv * (ELEM(xr[ow * s[2] + iw0], xsg) - xz);                                     \
                  }                                                                                                    \
                }                                                                                                      \
              }                                                                                                        \
            }                                                                                                          \
            uint8_t *yr = (uint8_t *)(yo + (od * out[1] + oh) * out[2] + ow0);                                         \
            for (int64_t j = 0; j < nw; j++)                                                                           \
              PUT(yr, j, (float)(acc[j] + bias) * mult, yz, ysg);                                                      \
          }                                                                                                            \
    }                                                                                                                  \
  }

QCONV_DIRECT(qconv_direct, uint8_t, int32_t, GLOW_Q8_ELEM, glow_q_zero, glow_q_put, 1)
QCONV_DIRECT(qconv_direct16, int16_t, int64_t, GLOW_Q16_ELEM, glow_q16_zero, glow_q16_put, 0)

/* ---- Fast path: channels-last int8 weights (layout 1), 1-D and 2-D ----
 *
 * Output rows go in bands of R rows. For a band, the inputs that each tap
 * reads are copied once into a stack buffer, as the dot product wants them
 * (x' below: unsigned, int8 x flipped to x + 128 and x_zero_point with it, or
 * signed where glow_qdot_x_signed()), 4 input channels to a 32-bit word:
 *   buf[kh][c / 4][phase][j][c % 4] = x'[c][ih][j * sw + phase - pad]
 * where ih is the input row of tap row kh for band row j / RW, RW = OW +
 * (KW - 1) * dw / sw, and j % RW < RW the column: band rows side by side on a
 * "wide" grid of RW columns (positions past OW are computed and dropped), so
 * for tap (kh, kw) and 4 channels, 16 consecutive positions are 64
 * consecutive bytes, at offset (kw * dw) / sw in phase (kw * dw) % sw (the
 * horizontal stride splits columns into phases, as conv_plane_f32 does).
 * Padding holds x_zero_point and padded channels hold 0, so every output sums
 * every tap:
 *   acc = sum x' w'  (glow_qdot: vpdpbusd where the CPU has VNNI)
 *   (x - xz)(w - wz) summed = acc - xz' sum w' - wz sum x' + K xz' wz
 * with K = C/G * taps; sum x' per position (only needed when a weight zero
 * point is not 0) is a dot product with ones. A register tile of MR output
 * channels x PV vectors of 16 positions accumulates over taps and channels;
 * results go through a small staging tile to the output rows. */

#define QCONV_BUF (GLOW_STACK_PANEL_FLOATS * 4)    /* bytes of the band buffer */
#define QCONV_LANES (GLOW_STACK_PANEL_FLOATS / 16) /* positions of a band (wide grid) */
#define QCONV_WIDE_MR 8 /* register tiles: output channels x vectors of 16 positions */
#define QCONV_WIDE_PV 2
#define QCONV_NARROW_MR 4
#define QCONV_NARROW_PV 1
#define QCONV_MR_MAX 8
#define QCONV_PV_MAX 2

typedef struct {
  int64_t Cq, KH, KW, sw, dw, RW, SL, ksz, c4;
} qconv_geo;

/* The register tile: acc[r][v] += the 64 bytes at x + 64 v times weight row r's word. */
#define QCONV_TILE(NAME, MR, PV, XSUM)                                                                                 \
  static inline void NAME(glow_qi16 (*acc)[QCONV_PV_MAX], glow_qi16 *xs, const uint8_t *buf, const int8_t *const *wr,  \
                          const qconv_geo *g, int64_t v0) {                                                            \
    for (int r = 0; r < MR; r++)                                                                                       \
      for (int v = 0; v < PV; v++)                                                                                     \
        acc[r][v] = (glow_qi16){0};                                                                                    \
    for (int v = 0; v < PV; v++)                                                                                       \
      xs[v] = (glow_qi16){0};                                                                                          \
    for (int64_t kh = 0, tap = 0; kh < g->KH; kh++)                                                                    \
      for (int64_t kw = 0; kw < g->KW; kw++, tap++) {                                                                  \
        int64_t ph = (kw * g->dw) % g->sw, off = (kw * g->dw) / g->sw;                                                 \
        const uint8_t *xp = buf + ((kh * g->Cq * g->sw + ph) * g->SL + v0 * 16 + off) * 4;                            \
        for (int64_t cq = 0; cq < g->Cq; cq++, xp += g->sw * g->SL * 4) {                                             \
          glow_q64 xv[PV];                                                                                             \
          for (int v = 0; v < PV; v++)                                                                                 \
            xv[v] = *(const glow_q64 *)(xp + 64 * v);                                                                  \
          for (int r = 0; r < MR; r++) {                                                                               \
            int32_t w4;                                                                                                \
            __builtin_memcpy(&w4, wr[r] + tap * g->c4 + 4 * cq, 4);                                                    \
            for (int v = 0; v < PV; v++)                                                                               \
              glow_qdot(&acc[r][v], &xv[v], w4);                                                                       \
          }                                                                                                            \
          for (int v = 0; XSUM && v < PV; v++)                                                                         \
            glow_qdot(&xs[v], &xv[v], 0x01010101);                                                                     \
        }                                                                                                              \
      }                                                                                                                \
  }

QCONV_TILE(qconv_tile_wide, QCONV_WIDE_MR, QCONV_WIDE_PV, 0)
QCONV_TILE(qconv_tile_wide_xs, QCONV_WIDE_MR, QCONV_WIDE_PV, 1)
QCONV_TILE(qconv_tile_narrow, QCONV_NARROW_MR, QCONV_NARROW_PV, 0)
QCONV_TILE(qconv_tile_narrow_xs, QCONV_NARROW_MR, QCONV_NARROW_PV, 1)

typedef uint8_t qconv_b16 __attribute__((vector_size(16), aligned(1)));
typedef uint8_t qconv_b32 __attribute__((vector_size(32), aligned(1)));
typedef uint8_t qconv_b64 __attribute__((vector_size(64), aligned(1)));

/* 4 rows of 16 bytes as 16 words: dst[j] = (v[0][j], v[1][j], v[2][j], v[3][j]),
 * interleaved in registers. */
static inline void qconv_quads(uint32_t *dst, const qconv_b16 *v) {
  qconv_b32 ab = __builtin_shufflevector(v[0], v[1], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23, 8, 24, 9,
                                         25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  qconv_b32 cd = __builtin_shufflevector(v[2], v[3], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23, 8, 24, 9,
                                         25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  *(qconv_b64 *)dst = __builtin_shufflevector(ab, cd, 0, 1, 32, 33, 2, 3, 34, 35, 4, 5, 36, 37, 6, 7, 38, 39, 8, 9, 40,
                                              41, 10, 11, 42, 43, 12, 13, 44, 45, 14, 15, 46, 47, 16, 17, 48, 49, 18,
                                              19, 50, 51, 20, 21, 52, 53, 22, 23, 54, 55, 24, 25, 56, 57, 26, 27, 58,
                                              59, 28, 29, 60, 61, 30, 31, 62, 63);
}

/* One band row of 4 channels: dst[j] = the 4 channels' bytes at column j
 * (x[j * sw], flipped) for j in [j0, j1), padw elsewhere up to jn; rows that
 * are NULL (channels past C/G) give 0. Strides 1 and 2 go 16 columns at a time,
 * a row's last few columns too where the 16 (or 32) bytes read stay before xend
 * (the end of X): the vector's lanes past j1 are then padw'd, and those past jn
 * land in the next row, slab or the buffer's 64 bytes of slack, all written after
 * (rows of 14 and 7 had gone a column at a time). */
static inline void qconv_pack_row(uint32_t *dst, const uint8_t *const *xr, int64_t j0, int64_t j1, int64_t jn,
                                  int64_t sw, uint8_t flip, uint32_t padw, const uint8_t *xend) {
  int64_t j = 0, jv = j1 - 1; /* vectors start at j <= jv */
  for (int cc = 0; cc < 4; cc++)
    if (xr[cc] && (xend - xr[cc]) / sw - 16 < jv)
      jv = (xend - xr[cc]) / sw - 16;
  for (; j < j0; j++)
    dst[j] = padw;
  if (sw == 1 || sw == 2)
    for (; j <= jv; j += 16) {
      qconv_b16 v[4];
      for (int cc = 0; cc < 4; cc++) {
        if (!xr[cc]) {
          v[cc] = (qconv_b16){0};
        } else if (sw == 1) {
          v[cc] = *(const qconv_b16 *)(xr[cc] + j) ^ flip;
        } else {
          qconv_b32 a = *(const qconv_b32 *)(xr[cc] + 2 * j);
          v[cc] = __builtin_shufflevector(a, a, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30) ^ flip;
        }
      }
      qconv_quads(dst + j, v);
    }
  j = j < j1 ? j : j1; /* the last vector's lanes from j1 on are padw'd below */
  for (; j < j1; j++) {
    uint32_t v = 0;
    for (int cc = 0; cc < 4; cc++)
      v |= (uint32_t)(xr[cc] ? (uint8_t)(xr[cc][j * sw] ^ flip) : 0) << 8 * cc;
    dst[j] = v;
  }
  for (; j < jn; j++)
    dst[j] = padw;
}

/* x as the dot product takes it: unsigned (int8 x flipped), or signed where
 * glow_qdot_x_signed() (uint8 x flipped). Returns x_zero_point so flipped;
 * *flip: what x's bytes are xored with. */
static inline int32_t qconv_dot_x(uint8_t *const *t, int xsg, uint8_t *flip) {
  int xs8 = glow_qdot_x_signed();
  *flip = xsg != xs8 ? 0x80 : 0;
  return glow_q_zero(t[3], 0, xsg) + (xsg && !xs8 ? 128 : 0) - (!xsg && xs8 ? 128 : 0);
}

/* The operands and parameters of the depthwise plane paths (qconv-pairs.h,
 * qconv-quads.h), as locals. */
#define QCONV_PLANE_ARGS(t, p)                                                                                         \
  uint8_t *y = t[0];                                                                                                   \
  const uint8_t *x = t[1];                                                                                             \
  const int32_t *b = (const int32_t *)t[9];                                                                            \
  const float *ws = (const float *)t[5];                                                                               \
  float xscale = *(const float *)t[2], ys = *(const float *)t[7];                                                      \
  const glow_abi_qconv *qa = QCONV_PAR(p);                                                                             \
  int64_t N = qa->N, G = qa->G, Mg = qa->Mg, ws_pc = qa->ws_per_channel, wz_pc = qa->wz_per_channel;                   \
  int xsg = (qa->signs & GLOW_Q_X_SIGNED) != 0, wsg = (qa->signs & GLOW_Q_W_SIGNED) != 0,                              \
      ysg = (qa->signs & GLOW_Q_Y_SIGNED) != 0;                                                                        \
  const int64_t *in = qa->w.in, *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *d = qa->w.d, *pb = qa->w.pb;            \
  int64_t IH = in[1], IW = in[2], OH = out[1], OW = out[2], sh = s[1], sw = s[2], dh = d[1], dw = d[2]

/* The operands and parameters of the band paths (here and qconv-pairs.h), as locals. */
#define QCONV_BAND_ARGS(t, p)                                                                                          \
  uint8_t *y = t[0];                                                                                                   \
  const uint8_t *x = t[1];                                                                                             \
  const int8_t *w = (const int8_t *)t[4];                                                                              \
  const int32_t *b = (const int32_t *)t[9];                                                                            \
  const float *ws = (const float *)t[5];                                                                               \
  float xscale = *(const float *)t[2], ys = *(const float *)t[7];                                                      \
  const glow_abi_qconv *qa = QCONV_PAR(p);                                                                             \
  int64_t N = qa->N, G = qa->G, Cg = qa->Cg, Mg = qa->Mg, ws_pc = qa->ws_per_channel, wz_pc = qa->wz_per_channel;      \
  int xsg = (qa->signs & GLOW_Q_X_SIGNED) != 0, ysg = (qa->signs & GLOW_Q_Y_SIGNED) != 0;                              \
  const int64_t *in = qa->w.in, *out = qa->w.out, *s = qa->w.s, *d = qa->w.d, *pb = qa->w.pb;                          \
  int64_t IH = in[1], IW = in[2], OH = out[1], OW = out[2], sh = s[1], dh = d[1]

/* The band geometry that does not depend on the band (Cq and SL do). */
static inline qconv_geo qconv_geo_of(const int64_t *p) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *d = qa->w.d;
  qconv_geo geo;
  geo.c4 = (qa->Cg + 3) / 4 * 4;
  geo.Cq = geo.c4 / 4;
  geo.KH = k[1];
  geo.KW = k[2];
  geo.sw = s[2];
  geo.dw = d[2];
  geo.RW = out[2] + (geo.KW - 1) * geo.dw / geo.sw;
  geo.ksz = geo.KH * geo.KW;
  geo.SL = 0;
  return geo;
}

/* Part `part` of `nparts`: a range of the bands (image, group, rows); where
 * there are few bands, of slices of a band's tiles of output channels, each
 * slice packing its band itself. */
static inline void qconv_rows(uint8_t *const *t, const int64_t *p, int64_t R, int wide, int64_t part,
                              int64_t nparts) {
  QCONV_BAND_ARGS(t, p);
  int pv = wide ? QCONV_WIDE_PV : QCONV_NARROW_PV, mr = wide ? QCONV_WIDE_MR : QCONV_NARROW_MR;
  qconv_geo geo = qconv_geo_of(p);
  int64_t nvb = ((R * geo.RW + 15) / 16 + pv - 1) / pv * pv; /* vectors per band */
  geo.SL = nvb * 16 + (geo.KW - 1) * geo.dw / geo.sw;
  uint8_t xflip;
  int32_t xz = qconv_dot_x(t, xsg, &xflip), yz = glow_q_zero(t[8], 0, ysg);
  int wzero = 1;
  for (int64_t m = 0; t[6] && m < (wz_pc ? G * Mg : 1); m++)
    wzero &= ((const int8_t *)t[6])[m] == 0;
  int64_t kall = Cg * geo.ksz;
  uint8_t buf[QCONV_BUF + 64] __attribute__((aligned(64))); /* + qconv_pack_row's slack */
  uint8_t stage[QCONV_MR_MAX][QCONV_LANES];
  const uint8_t *xend = x + N * G * Cg * IH * IW;
  int64_t nb = (OH + R - 1) / R, units = N * G * nb, mt = (Mg + mr - 1) / mr;
  /* A 1x1 conv with unit strides and no padding: a band's rows are contiguous in x and in
   * buf, so they pack as one run, 16 columns at a time across rows: no per-row setup and no
   * part-empty vector at each row's end (rows of 7: 4 vectors for 7 rows, not 7). Against
   * packing row by row (qconv_pack_row, whole vectors to the row's end): int8 mobilenet_v2
   * 3.49 -> 3.35 ms, efficientnet_b0 5.06 -> 4.90 (medians of 11 alternating rounds). */
  int flat = geo.KH == 1 && geo.KW == 1 && sh == 1 && geo.sw == 1 && pb[1] == 0 && pb[2] == 0 && geo.RW == IW &&
             OH == IH;
  int64_t ms = nparts == 1 || units >= 4 * nparts ? 1 : (4 * nparts + units - 1) / units;
  ms = ms < mt ? ms : mt;
  for (int64_t it = units * ms * part / nparts, packed = -1; it < units * ms * (part + 1) / nparts; it++) {
    int64_t u = it / ms, sl = it % ms, n = u / (G * nb), g = u / nb % G, oh0 = u % nb * R;
    int64_t rows = OH - oh0 < R ? OH - oh0 : R;
    if (u != packed && flat) /* the band's rows are one run of x per channel, and of buf */
      for (int64_t cq = 0; cq < geo.Cq; cq++) {
        const uint8_t *xr[4];
        uint32_t padw = 0;
        for (int cc = 0; cc < 4; cc++) {
          int64_t c = cq * 4 + cc;
          xr[cc] = c < Cg ? x + ((n * G + g) * Cg + c) * IH * IW + oh0 * IW : 0;
          padw |= (uint32_t)(c < Cg ? (uint8_t)xz : 0) << 8 * cc;
        }
        qconv_pack_row((uint32_t *)(buf + cq * geo.SL * 4), xr, 0, rows * geo.RW, geo.SL, 1, xflip, padw, xend);
      }
    else if (u != packed) /* the band's inputs */
      for (int64_t kh = 0; kh < geo.KH; kh++)
        for (int64_t cq = 0; cq < geo.Cq; cq++)
          for (int64_t ph = 0; ph < geo.sw; ph++) {
            uint8_t *dst = buf + ((kh * geo.Cq + cq) * geo.sw + ph) * geo.SL * 4;
            for (int64_t r = 0; r * geo.RW < geo.SL; r++) {
              int64_t ih = (oh0 + r) * sh + kh * dh - pb[1], j0 = 0, j1 = 0;
              if (r < rows && (uint64_t)ih < (uint64_t)IH)
                glow_nn_range(ph - pb[2], geo.sw, IW, geo.RW, &j0, &j1);
              int64_t jn = geo.SL - r * geo.RW < geo.RW ? geo.SL - r * geo.RW : geo.RW;
              const uint8_t *xr[4];
              for (int cc = 0; cc < 4; cc++) {
                int64_t c = cq * 4 + cc;
                xr[cc] = c < Cg && j1 > j0 ? x + ((n * G + g) * Cg + c) * IH * IW + ih * IW + ph - pb[2] : 0;
              }
              uint32_t padw = 0;
              for (int cc = 0; cc < 4; cc++)
                padw |= (uint32_t)(cq * 4 + cc < Cg ? (uint8_t)xz : 0) << 8 * cc;
              qconv_pack_row((uint32_t *)(dst + r * geo.RW * 4), xr, j0, j1, jn, geo.sw, xflip, padw, xend);
            }
          }
    packed = u;
    int64_t nv = (rows * geo.RW + 15) / 16;
    for (int64_t m0 = mt * sl / ms * mr; m0 < mt * (sl + 1) / ms * mr && m0 < Mg; m0 += mr) {
      int64_t mn = Mg - m0 < mr ? Mg - m0 : mr;
      const int8_t *wr[QCONV_MR_MAX];
      int32_t corr[QCONV_MR_MAX], wzv[QCONV_MR_MAX];
      glow_qf16 mult[QCONV_MR_MAX];
      for (int r = 0; r < mr; r++) {
        int64_t ch = g * Mg + m0 + (r < mn ? r : mn - 1);
        wr[r] = w + ch * geo.ksz * geo.c4;
        int32_t sum = 0;
        for (int64_t i = 0; i < geo.ksz * geo.c4; i++)
          sum += wr[r][i];
        wzv[r] = t[6] ? ((const int8_t *)t[6])[wz_pc ? ch : 0] : 0;
        corr[r] = (b ? b[ch] : 0) - xz * sum + (int32_t)kall * xz * wzv[r];
        mult[r] = (glow_qf16){0} + glow_q_multiplier(xscale, ws[ws_pc ? ch : 0], ys);
      }
      for (int64_t v0 = 0; v0 < nv; v0 += pv) {
        glow_qi16 acc[QCONV_MR_MAX][QCONV_PV_MAX], xs[QCONV_PV_MAX];
        if (wide && wzero)
          qconv_tile_wide(acc, xs, buf, wr, &geo, v0);
        else if (wide)
          qconv_tile_wide_xs(acc, xs, buf, wr, &geo, v0);
        else if (wzero)
          qconv_tile_narrow(acc, xs, buf, wr, &geo, v0);
        else
          qconv_tile_narrow_xs(acc, xs, buf, wr, &geo, v0);
        for (int r = 0; r < mr; r += 2) { /* two rows at once where the target packs them (qdot.h) */
          glow_qi16 a[2][QCONV_PV_MAX];
          for (int i = 0; i < 2; i++)
            for (int v = 0; v < pv; v++)
              a[i][v] = acc[r + i][v] + corr[r + i] - wzv[r + i] * xs[v];
          if (pv == 2 && glow_q_requant64(stage[r] + v0 * 16, stage[r + 1] + v0 * 16, &a[0][0], &mult[r],
                                          &mult[r + 1], yz, ysg))
            continue;
          for (int i = 0; i < 2; i++)
            for (int v = 0; v < pv; v++)
              glow_q_saturate16(stage[r + i] + (v0 + v) * 16, (const int32_t *)&a[i][v], (const float *)&mult[r + i],
                                yz, ysg);
        }
      }
      for (int r = 0; r < mn; r++)
        for (int64_t r0 = 0; r0 < rows; r0++) {
          uint8_t *yr = y + ((n * G + g) * Mg + m0 + r) * OH * OW + (oh0 + r0) * OW;
          for (int64_t ow = 0; ow < OW; ow++)
            yr[ow] = stage[r][r0 * geo.RW + ow];
        }
    }
  }
}

/* Rows per band for the fast path (in closed form, so that it folds to a
 * constant), 0 where it does not apply or no row fits. */
/* The band paths (here and qconv-pairs.h) run channels-last weights, 1-D and
 * 2-D; not depthwise (one input and one output channel per group), where a
 * tile would be 1 of its channel rows and 1 of the bytes of each dot product. */
static inline int qconv_band_applies(const int64_t *p) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *in = qa->w.in, *out = qa->w.out, *k = qa->w.k, *pb = qa->w.pb;
  return qa->w_layout && in[0] == 1 && out[0] == 1 && k[0] == 1 && pb[0] == 0 && !(qa->Cg == 1 && qa->Mg == 1);
}

static inline int64_t qconv_rows_per_band(const int64_t *p, int wide) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *d = qa->w.d;
  if (!qconv_band_applies(p))
    return 0;
  int64_t pv = wide ? QCONV_WIDE_PV : QCONV_NARROW_PV, c4 = (qa->Cg + 3) / 4 * 4, off = (k[2] - 1) * d[2] / s[2];
  int64_t rw = out[2] + off;
  /* Vectors of 16 positions per band: what the buffer and the staging tile hold. */
  int64_t vb = (QCONV_BUF / (k[1] * c4 * s[2]) - off) / 16, vl = QCONV_LANES / 16;
  int64_t v = (vb < vl ? vb : vl) / pv * pv, R = v * 16 / rw;
  return R < out[1] ? R : out[1];
}

/* Whether a depthwise plane path (qconv-pairs.h, qconv-quads.h) may take p,
 * before its own limits: one input channel per group, 2-D, weights in their
 * ONNX layout, horizontal strides 1 and 2. */
static inline int qconv_plane_applies(const int64_t *p) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *in = qa->w.in, *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *pb = qa->w.pb;
  return !qa->w_layout && qa->Cg == 1 && in[0] == 1 && out[0] == 1 && k[0] == 1 && pb[0] == 0 && s[2] <= 2;
}

/* A plane path's padded input row: xr's IW bytes (^ flip) after pb bytes z, z up to n. */
static inline void qconv_plane_pad_row(uint8_t *rb, const uint8_t *xr, int64_t IW, int64_t pb, int64_t n, uint8_t z,
                                       uint8_t flip) {
  for (int64_t j = 0; j < pb; j++)
    rb[j] = z;
  for (int64_t j = 0; j < IW; j++)
    rb[pb + j] = xr[j] ^ flip;
  for (int64_t j = pb + IW; j < n; j++)
    rb[j] = z;
}

#include "kernels/qconv-mcu.h"
#include "kernels/qconv-pairs.h"
#include "kernels/qconv-quads.h"
#include "kernels/qconv-dw16.h"

/* Cortex-M's paths where the target is one (qconv-mcu.h), in part 0; int16
 * pairs where the target wants them (qconv-pairs.h); else 4-byte dot
 * products: depthwise planes (qconv-quads.h, not on Cortex-M, whose direct
 * loops take fewer products), the others in bands, the wide tile where the
 * target has the registers and a band of it fits, else the narrow one; else
 * the direct loops. All but Cortex-M's split into parts. */
GLOW_KERNEL_PART(qlinearconv) {
  if (glow_qdot_mcu() && qmcu_conv_takes(p)) {
    if (part == 0)
      qmcu_conv(t, p);
    return;
  }
  if (qconv_dw16(t, p, part, nparts)) /* depthwise, 16 channels to a vector */
    return;
  int wide = glow_qdot_wide();
  if (glow_qdot_pairs()) {
    int64_t R2 = qconv2_plane_rows(p);
    if (R2 > 0) {
      qconv_plane2(t, p, R2, part, nparts);
      return;
    }
    int pw = wide;
    qconv2_plan pl = qconv2_plan_for(p, pw);
    if (!pl.R && pw)
      pl = qconv2_plan_for(p, pw = 0);
    if (pl.R) {
      qconv_pairs(t, p, pl, pw, part, nparts);
      return;
    }
  }
  int64_t R4 = glow_qdot_mcu() ? 0 : qconv4_plane_rows(p);
  if (R4 > 0) {
    qconv_plane4(t, p, R4, part, nparts);
    return;
  }
  int64_t R = qconv_rows_per_band(p, wide);
  if (wide && R <= 0)
    R = qconv_rows_per_band(p, wide = 0);
  if (R > 0)
    qconv_rows(t, p, R, wide, part, nparts);
  else
    qconv_direct(t, p, part, nparts);
}

GLOW_KERNEL(qlinearconv) { glow_k_qlinearconv_part(t, p, 0, 1); }

/* int16 X, W and Y (Int16 quantization): the direct loops, int64 sums. */
GLOW_KERNEL(qlinearconv16) { qconv_direct16(t, p, 0, 1); }
