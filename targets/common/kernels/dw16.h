/* Depthwise convolutions 16 channels to a vector: the band geometry, the buffer fill and
 * the register tile that kernels/conv-dw.c (float32) and kernels/qconv-dw16.h (int8, summed
 * in float: exact, see there) share. A band's input rows sit in a stack buffer of pixels,
 * each a vector of 16 channels, zero-padded; each tap of each output is one vector
 * multiply-add, in the order bias (or 0), then taps row by row. */
#ifndef GLOW_DW16_H
#define GLOW_DW16_H

#include "kernel-abi.h"
#include "kernel.h"
#include "kernels/nn-vec.h"

#define DW_BUF GLOW_STACK_PANEL_FLOATS /* input pixels and the taps' weights */
#define DW_OUT (GLOW_STACK_PANEL_FLOATS / 2) /* the band's outputs */
#define DW_PT 8                              /* outputs per register tile */

/* The sizes of one band: buffer rows of pw pixels (the padded input columns the
 * outputs read), rows per band of output rows. */
typedef struct {
  int64_t OH, OW, H, W, KH, KW, sh, sw, dh, dw, ph, pw0, pw, band;
} dw_shape;

/* Whether 16 channels to a vector pays against the one-channel-at-a-time plane paths
 * (conv.c's plane kernel, qconv-quads.h): it costs two 16 x 16 transposes per 16
 * outputs, which pay where those paths' rows of 16 columns fill few lanes or their taps
 * are many (ow: output columns, sw: horizontal stride). Measured for float32 on a
 * Sapphire Rapids core, one thread (plane -> dw16, ms): 1152 channels 5x5 on 7 x 7
 * 0.121 -> 0.043, 960 3x3 on 7 x 7 0.029 -> 0.023; 672 5x5 on 14 x 14 0.149 -> 0.087,
 * but 480 3x3 0.028 -> 0.041; 240 5x5 on 28 x 28 0.163 -> 0.139, but 240 3x3 0.055 ->
 * 0.103; stride 2 to 14 x 14 0.044 -> 0.040 (240 3x3), to 28 x 28 0.088 -> 0.113 (144
 * 3x3). */
static inline int dw16_pays(int64_t ow, int64_t taps, int64_t sw) {
  return ow <= 7 || (ow <= 28 && taps >= 25) || (ow <= 14 && sw >= 2);
}

/* The same for int8 against qconv-quads.h (4 taps to a vpdpbusd, 64 outputs requantized
 * at once): dw16 pays on rows of at most 14 outputs. Measured in mobilenet_v2's and
 * efficientnet_b0's int8 bundles on the same core (quads -> dw16, ms per step, perf's
 * shares): 384 3x3 on 14 x 14 0.081 -> 0.062, 576 0.116 -> 0.087, 672 5x5 0.24 ->
 * 0.15; but 192 3x3 on 28 x 28 0.100 -> 0.13, 144 3x3 stride 2 to 28 x 28 0.112 ->
 * 0.202, 144 5x5 stride 2 to 28 x 28 0.185 -> 0.246, 240 5x5 on 28 x 28 0.210 -> 0.227. */
static inline int qdw16_pays(int64_t ow) { return ow <= 14; }

/* Output rows per band (0: one does not fit); the weights take ksz vectors at
 * the buffer's end. */
static inline int64_t dw_band(const dw_shape *s, int64_t ksz) {
  int64_t rows = (DW_BUF - ksz * 16) / (s->pw * 16), span = (s->KH - 1) * s->dh + 1;
  if (ksz * 16 > DW_BUF / 2 || rows < span || s->OW * 16 > DW_OUT)
    return 0;
  int64_t band = (rows - span) / s->sh + 1, out = DW_OUT / (s->OW * 16);
  band = band < out ? band : out;
  return band < s->OH ? band : s->OH;
}

/* The band geometry of a 2-D window (band: 0 where one output row does not fit). */
static inline dw_shape dw_shape_of(const glow_abi_win *w) {
  const int64_t *in = w->in, *out = w->out, *k = w->k, *st = w->s, *d = w->d, *pb = w->pb;
  dw_shape s = {out[1], out[2], in[1], in[2], k[1], k[2], st[1], st[2], d[1], d[2], pb[1], pb[2], 0, 0};
  s.pw = (out[2] - 1) * st[2] + (k[2] - 1) * d[2] + 1;
  s.band = dw_band(&s, k[1] * k[2]);
  return s;
}

/* DW_FILL(NAME, T, LOADV, LOADS) defines NAME(buf, s, xc, isz, xend, mb, ih0, nr, xz, xsg):
 * buffer rows [0, nr) from input row ih0 on, of the mb channels from xc (planes isz
 * elements of T apart; xend: the end of X, past which no vector is read): zero rows and
 * columns outside X, the rest moved 16 pixels at a time over the run of valid rows (one
 * contiguous run per plane) by 16 x 16 transposes. LOADV(p, xz, xsg): p's 16 elements
 * as floats, LOADS(p, xz, xsg) one (float32 X: as they are; int8: x - x_zero_point). */
#define DW_FILL(NAME, T, LOADV, LOADS)                                                                                 \
  static inline void NAME(float *buf, const dw_shape *s, const T *xc, int64_t isz, const T *xend, int64_t mb,          \
                          int64_t ih0, int64_t nr, int32_t xz, int xsg) {                                              \
    (void)xz, (void)xsg;                                                                                               \
    int64_t r0 = ih0 < 0 ? -ih0 : 0, r1 = s->H - ih0 < nr ? s->H - ih0 : nr; /* rows inside X: [r0, r1) */              \
    r1 = r1 > r0 ? r1 : r0;                                                                                            \
    int64_t wlo = s->pw0 < s->pw ? s->pw0 : s->pw, whi = s->pw0 + s->W < s->pw ? s->pw0 + s->W : s->pw;               \
    for (int64_t r = 0; r < nr; r++) {                                                                                 \
      float *br = buf + r * s->pw * 16;                                                                                \
      int64_t z0 = r >= r0 && r < r1 ? wlo : s->pw, z1 = r >= r0 && r < r1 ? whi : s->pw;                              \
      for (int64_t c = 0; c < z0; c++)                                                                                 \
        *(glow_nn_v16 *)(br + c * 16) = (glow_nn_v16){0};                                                              \
      for (int64_t c = z1; c < s->pw; c++)                                                                             \
        *(glow_nn_v16 *)(br + c * 16) = (glow_nn_v16){0};                                                              \
    }                                                                                                                  \
    int64_t f0 = (ih0 + r0) * s->W, f1 = (ih0 + r1) * s->W, row = r0, col = 0;                                         \
    for (int64_t f = f0; f < f1; f += 16) {                                                                            \
      int64_t n = f1 - f < 16 ? f1 - f : 16;                                                                           \
      int full = n == 16 && xc + (mb - 1) * isz + f + 16 <= xend;                                                      \
      glow_nn_v16 v[16];                                                                                               \
      for (int i = 0; i < 16; i++)                                                                                     \
        if (full)                                                                                                      \
          v[i] = i < mb ? LOADV(xc + i * isz + f, xz, xsg) : (glow_nn_v16){0};                                         \
        else                                                                                                           \
          for (int j = 0; j < 16; j++)                                                                                 \
            v[i][j] = i < mb && j < n ? LOADS(xc + i * isz + f + j, xz, xsg) : 0.0f;                                   \
      glow_nn_transpose16(v); /* v[j]: pixel f + j's channels */                                                       \
      for (int j = 0; j < n; j++) {                                                                                    \
        if (s->pw0 + col < s->pw)                                                                                      \
          *(glow_nn_v16 *)(buf + (row * s->pw + s->pw0 + col) * 16) = v[j];                                            \
        if (++col == s->W)                                                                                             \
          col = 0, row++;                                                                                              \
      }                                                                                                                \
    }                                                                                                                  \
  }

/* Outputs [ow0, ow0 + DW_PT) of band row r (those past OW repeat the last one,
 * computed, not stored) into st, pixel-major. */
static inline __attribute__((always_inline)) void dw_tile(const dw_shape *s, const float *buf, const glow_nn_v16 *wt,
                                                          const glow_nn_v16 *bias, float *st, int64_t r, int64_t ow0) {
  int64_t col[DW_PT];
  glow_nn_v16 acc[DW_PT];
  for (int i = 0; i < DW_PT; i++) {
    col[i] = (ow0 + i < s->OW ? ow0 + i : s->OW - 1) * s->sw;
    acc[i] = *bias;
  }
  for (int64_t kh = 0; kh < s->KH; kh++) {
    const float *br = buf + (r * s->sh + kh * s->dh) * s->pw * 16;
    for (int64_t kw = 0; kw < s->KW; kw++) {
      glow_nn_v16 w = wt[kh * s->KW + kw];
      const float *bk = br + kw * s->dw * 16;
      for (int i = 0; i < DW_PT; i++)
        acc[i] += w * *(const glow_nn_v16 *)(bk + col[i] * 16);
    }
  }
  for (int i = 0; i < DW_PT && ow0 + i < s->OW; i++)
    *(glow_nn_v16 *)(st + (r * s->OW + ow0 + i) * 16) = acc[i];
}

#endif
