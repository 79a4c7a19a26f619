/* Float32 depthwise convolutions (one input and one output channel per group),
 * 1-D or 2-D, 16 channels to a vector: for each block of 16 channels and band
 * of output rows, the band's input rows move from X's planes into a zero-padded
 * stack buffer of pixels, each pixel a vector of the block's 16 channels
 * (16 x 16 transposes over each plane's run of pixels); every tap of every
 * output is then one multiply-add of two vectors, with no shuffles for strides,
 * padding or planes narrower than a vector (the plane kernel, conv.c, fills 7
 * of 16 lanes on a 7 x 7 plane and splits stride-2 rows into phases one float
 * at a time at their ends). The band's outputs, pixel-major, are transposed
 * back into Y's planes with the epilogue (kernels/epilogue.h: glow_epi_strip_out).
 *
 * Each output is the same sum in the same order as in the plane kernel: the
 * bias, then the taps row by row.
 *
 * Where the target has no registers for a 16 x 16 transpose (glow_qdot_wide()
 * says 32 vector registers of 64 bytes), or a band of one output row does not
 * fit the stack buffer, the plane kernel runs instead.
 * t: Y, X, W, B (B may be NULL), R (the residual, may be NULL); p: glow_abi_conv. */
#include "kernel.h"
#include "kernels/epilogue.h"
#include "kernels/nn-vec.h"
#include "qdot.h" /* glow_qdot_wide() */

void glow_k_conv_plane_f32_part(uint8_t *const *t, const int64_t *p, int64_t part, int64_t nparts);

#define DW_BUF GLOW_STACK_PANEL_FLOATS /* input pixels and the taps' weights */
#define DW_OUT (GLOW_STACK_PANEL_FLOATS / 2) /* the band's outputs */
#define DW_PT 8                              /* outputs per register tile */

/* The sizes of one band: buffer rows of pw pixels (the padded input columns the
 * outputs read), rows per band of output rows. */
typedef struct {
  int64_t OH, OW, H, W, KH, KW, sh, sw, dh, dw, ph, pw0, pw, band;
} dw_shape;

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

/* Buffer rows [0, nr) from input row ih0 on, of the mb channels from xc (planes
 * isz apart; xend: the end of X, past which no vector is read): zero rows and
 * columns outside X, the rest moved 16 pixels at a time over the run of valid
 * rows (one contiguous run per plane). */
static inline void dw_fill(float *buf, const dw_shape *s, const float *xc, int64_t isz, const float *xend, int64_t mb,
                           int64_t ih0, int64_t nr) {
  int64_t r0 = ih0 < 0 ? -ih0 : 0, r1 = s->H - ih0 < nr ? s->H - ih0 : nr; /* rows inside X: [r0, r1) */
  r1 = r1 > r0 ? r1 : r0;
  int64_t wlo = s->pw0 < s->pw ? s->pw0 : s->pw, whi = s->pw0 + s->W < s->pw ? s->pw0 + s->W : s->pw;
  for (int64_t r = 0; r < nr; r++) {
    float *br = buf + r * s->pw * 16;
    int64_t z0 = r >= r0 && r < r1 ? wlo : s->pw, z1 = r >= r0 && r < r1 ? whi : s->pw;
    for (int64_t c = 0; c < z0; c++)
      *(glow_nn_v16 *)(br + c * 16) = (glow_nn_v16){0};
    for (int64_t c = z1; c < s->pw; c++)
      *(glow_nn_v16 *)(br + c * 16) = (glow_nn_v16){0};
  }
  int64_t f0 = (ih0 + r0) * s->W, f1 = (ih0 + r1) * s->W, row = r0, col = 0;
  for (int64_t f = f0; f < f1; f += 16) {
    int64_t n = f1 - f < 16 ? f1 - f : 16;
    int full = n == 16 && xc + (mb - 1) * isz + f + 16 <= xend;
    glow_nn_v16 v[16];
    for (int i = 0; i < 16; i++)
      if (full)
        v[i] = i < mb ? *(const glow_nn_v16 *)(xc + i * isz + f) : (glow_nn_v16){0};
      else
        for (int j = 0; j < 16; j++)
          v[i][j] = i < mb && j < n ? xc[i * isz + f + j] : 0.0f;
    glow_nn_transpose16(v); /* v[j]: pixel f + j's channels */
    for (int j = 0; j < n; j++) {
      if (s->pw0 + col < s->pw)
        *(glow_nn_v16 *)(buf + (row * s->pw + s->pw0 + col) * 16) = v[j];
      if (++col == s->W)
        col = 0, row++;
    }
  }
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

/* Part `part` of `nparts`: a range of the (image, block of 16 channels) pairs. */
GLOW_KERNEL_PART(conv_dw16_f32) {
  float *y = (float *)t[0];
  const float *x = (const float *)t[1], *w = (const float *)t[2], *b = (const float *)t[3], *res = (const float *)t[4];
  const glow_abi_conv *cp = (const glow_abi_conv *)p;
  const int64_t *in = cp->w.in, *out = cp->w.out, *k = cp->w.k, *st = cp->w.s, *d = cp->w.d, *pb = cp->w.pb;
  int64_t N = cp->N, G = cp->G, ksz = k[1] * k[2], isz = in[1] * in[2], osz = out[1] * out[2];
  dw_shape s = {out[1], out[2], in[1], in[2], k[1], k[2], st[1], st[2], d[1], d[2], pb[1], pb[2], 0, 0};
  s.pw = (out[2] - 1) * st[2] + (k[2] - 1) * d[2] + 1;
  s.band = dw_band(&s, ksz);
  if (!glow_qdot_wide() || !s.band || in[0] != 1 || k[0] != 1 || cp->Cg != 1 || cp->Mg != 1) {
    glow_k_conv_plane_f32_part(t, p, part, nparts);
    return;
  }
  glow_epi e = glow_epi_get(&cp->epi);
  float buf[DW_BUF] __attribute__((aligned(64))), ob[DW_OUT] __attribute__((aligned(64)));
  glow_nn_v16 *wt = (glow_nn_v16 *)(buf + DW_BUF - ksz * 16);
  const float *xend = x + N * G * isz;
  int64_t nblk = (G + 15) / 16, units = N * nblk;
  for (int64_t u = units * part / nparts; u < units * (part + 1) / nparts; u++) {
    int64_t n = u / nblk, c0 = u % nblk * 16, mb = G - c0 < 16 ? G - c0 : 16;
    glow_nn_v16 bias = {0};
    for (int j = 0; j < mb; j++)
      bias[j] = b ? b[c0 + j] : 0.0f;
    for (int64_t tap = 0; tap < ksz; tap++)
      for (int j = 0; j < 16; j++)
        wt[tap][j] = j < mb ? w[(c0 + j) * ksz + tap] : 0.0f;
    const float *xc = x + (n * G + c0) * isz;
    float *yc = y + (n * G + c0) * osz;
    for (int64_t oh0 = 0; oh0 < s.OH; oh0 += s.band) {
      int64_t oh1 = oh0 + s.band < s.OH ? oh0 + s.band : s.OH, nr = (oh1 - oh0 - 1) * s.sh + (s.KH - 1) * s.dh + 1;
      dw_fill(buf, &s, xc, isz, xend, mb, oh0 * s.sh - s.ph, nr);
      for (int64_t r = 0; r < oh1 - oh0; r++)
        for (int64_t ow0 = 0; ow0 < s.OW; ow0 += DW_PT)
          dw_tile(&s, buf, wt, &bias, ob, r, ow0);
      int64_t np = (oh1 - oh0) * s.OW;
      float *yb = yc + oh0 * s.OW;
      int inreg = glow_epi_in_regs(e); /* the residual and a ReLU or clip in registers, as the outputs move */
      for (int64_t q = 0; q < np; q += 16)
        if (inreg)
          glow_epi_strip_out(ob + q * 16, 16, yb + q, osz, np - q < 16 ? np - q : 16, mb, e,
                             res ? res + (yb - y) + q : 0);
        else
          glow_nn_strip_move(ob + q * 16, 16, yb + q, osz, np - q < 16 ? np - q : 16, mb, 1);
      if (!inreg && (res || e.kind != GLOW_EPI_NONE))
#pragma clang loop unroll(disable)
        for (int64_t j = 0; j < mb; j++)
          glow_epi_row(e, yb + j * osz, res ? res + (yb - y) + j * osz : 0, np);
    }
  }
}

GLOW_KERNEL(conv_dw16_f32) { glow_k_conv_dw16_f32_part(t, p, 0, 1); }
