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
 * Where it does not pay (dw16_pays, kernels/dw16.h), where the target has no
 * registers for a 16 x 16 transpose (glow_qdot_wide() says 32 vector registers of
 * 64 bytes), or where a band of one output row does not fit the stack buffer, the
 * plane kernel runs instead.
 * t: Y, X, W, B (B may be NULL), R (the residual, may be NULL); p: glow_abi_conv. */
#include "kernel.h"
#include "kernels/epilogue.h"
#include "kernels/dw16.h"
#include "kernels/nn-vec.h"
#include "qdot.h" /* glow_qdot_wide() */

void glow_k_conv_plane_f32_part(uint8_t *const *t, const int64_t *p, int64_t part, int64_t nparts);

/* float32 X as it is. */
#define DW_F32V(p, xz, xsg) (*(const glow_nn_v16 *)(p))
#define DW_F32S(p, xz, xsg) (*(p))
DW_FILL(dw_fill, float, DW_F32V, DW_F32S)

/* Part `part` of `nparts`: a range of the (image, block of 16 channels) pairs. */
GLOW_KERNEL_PART(conv_dw16_f32) {
  float *y = (float *)t[0];
  const float *x = (const float *)t[1], *w = (const float *)t[2], *b = (const float *)t[3], *res = (const float *)t[4];
  const glow_abi_conv *cp = (const glow_abi_conv *)p;
  const int64_t *in = cp->w.in, *out = cp->w.out, *k = cp->w.k;
  int64_t N = cp->N, G = cp->G, ksz = k[1] * k[2], isz = in[1] * in[2], osz = out[1] * out[2];
  dw_shape s = dw_shape_of(&cp->w);
  if (!glow_qdot_wide() || !s.band || in[0] != 1 || k[0] != 1 || cp->Cg != 1 || cp->Mg != 1 || G < 16 ||
      !dw16_pays(s.OW, ksz, s.sw)) {
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
      dw_fill(buf, &s, xc, isz, xend, mb, oh0 * s.sh - s.ph, nr, 0, 0);
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
