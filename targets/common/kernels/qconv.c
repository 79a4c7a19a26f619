/* QLinearConv, N x C x [D x [H x]] W layout; spatial axes right-aligned to 3.
 * int32 sums of (x - x_zero_point) * (w - w_zero_point), plus the bias, then
 * requantized: saturate(round((float)acc * m) + y_zero_point), m =
 * (x_scale * w_scale) / y_scale in float (kernels/quant.h).
 * t: Y, X, x_scale, x_zero_point, W, w_scale, w_zero_point, y_scale,
 *    y_zero_point, B (zero points and B may be NULL)
 * p: N, G, C/G, M/G, signedness flags (GLOW_Q_*), w_scale per channel,
 *    w_zero_point per channel, W layout (0: M x C/G x taps; 1: M x taps x C4,
 *    int8, C4 = C/G rounded up to 4, from compiler/passes/pack-weights.c),
 *    window params in[3], out[3], k[3], s[3], d[3], pb[3], pe[3]. */
#include "kernels/nn-vec.h"
#include "kernels/quant.h"

#define QCONV_CHUNK 256 /* output columns summed at a time */

/* Direct convolution, output row by output row (in chunks of QCONV_CHUNK
 * columns): for each tap, the output columns whose input is inside X form a
 * range, so the innermost loop has no tests. */
static inline void qconv_direct(uint8_t *const *t, const int64_t *p) {
  uint8_t *y = t[0];
  const uint8_t *x = t[1], *w = t[4];
  const int32_t *b = (const int32_t *)t[9];
  const float *ws = (const float *)t[5];
  float xs = *(const float *)t[2], ys = *(const float *)t[7];
  int64_t N = p[0], G = p[1], Cg = p[2], Mg = p[3], ws_pc = p[5], wz_pc = p[6];
  int xsg = (p[4] & GLOW_Q_X_SIGNED) != 0, wsg = (p[4] & GLOW_Q_W_SIGNED) != 0, ysg = (p[4] & GLOW_Q_Y_SIGNED) != 0;
  const int64_t *in = p + 8, *out = p + 11, *k = p + 14, *s = p + 17, *d = p + 20, *pb = p + 23;
  int64_t isz = in[0] * in[1] * in[2], osz = out[0] * out[1] * out[2], ksz = k[0] * k[1] * k[2];
  /* Strides of W between input channels and taps. */
  int64_t c4 = (Cg + 3) / 4 * 4, wcs = p[7] ? 1 : ksz, wts = p[7] ? c4 : 1, wms = p[7] ? ksz * c4 : Cg * ksz;
  int32_t xz = glow_q_zero(t[3], 0, xsg), yz = glow_q_zero(t[8], 0, ysg);
  for (int64_t n = 0; n < N; n++)
    for (int64_t mm = 0; mm < G * Mg; mm++) {
      int64_t g = mm / Mg;
      float mult = glow_q_multiplier(xs, ws[ws_pc ? mm : 0], ys);
      int32_t wz = glow_q_zero(t[6], wz_pc ? mm : 0, wsg), bias = b ? b[mm] : 0;
      const uint8_t *wm = w + mm * wms;
      uint8_t *yo = y + (n * G * Mg + mm) * osz;
      for (int64_t od = 0; od < out[0]; od++)
        for (int64_t oh = 0; oh < out[1]; oh++)
          for (int64_t ow0 = 0; ow0 < out[2]; ow0 += QCONV_CHUNK) {
            int64_t nw = out[2] - ow0 < QCONV_CHUNK ? out[2] - ow0 : QCONV_CHUNK;
            int32_t acc[QCONV_CHUNK];
            for (int64_t j = 0; j < nw; j++)
              acc[j] = 0;
            for (int64_t c = 0; c < Cg; c++) {
              const uint8_t *xc = x + ((n * G + g) * Cg + c) * isz;
              for (int64_t kd = 0; kd < k[0]; kd++) {
                int64_t id = od * s[0] + kd * d[0] - pb[0];
                for (int64_t kh = 0; (uint64_t)id < (uint64_t)in[0] && kh < k[1]; kh++) {
                  int64_t ih = oh * s[1] + kh * d[1] - pb[1];
                  if ((uint64_t)ih >= (uint64_t)in[1])
                    continue;
                  const uint8_t *xr = xc + (id * in[1] + ih) * in[2];
                  for (int64_t kw = 0; kw < k[2]; kw++) {
                    int32_t wv = glow_q_get(wm, c * wcs + ((kd * k[1] + kh) * k[2] + kw) * wts, wsg) - wz;
                    int64_t w0, w1, iw0 = kw * d[2] - pb[2];
                    glow_nn_range(iw0, s[2], in[2], out[2], &w0, &w1);
                    w0 = w0 > ow0 ? w0 : ow0;
                    w1 = w1 < ow0 + nw ? w1 : ow0 + nw;
                    for (int64_t ow = w0; ow < w1; ow++)
                      acc[ow - ow0] += wv * (glow_q_get(xr, ow * s[2] + iw0, xsg) - xz);
                  }
                }
              }
            }
            uint8_t *yr = yo + (od * out[1] + oh) * out[2] + ow0;
            for (int64_t j = 0; j < nw; j++)
              yr[j] = glow_q_saturate((float)(acc[j] + bias) * mult, yz, ysg);
          }
    }
}

GLOW_KERNEL(qlinearconv) { qconv_direct(t, p); }
