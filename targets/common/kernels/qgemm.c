/* QLinearMatMul: batched, strided int8/uint8 matrix products, int32 sums of
 * (A - a_zero_point) * (B - b_zero_point) requantized as kernels/quant.h says.
 * t: Y, A, a_scale, a_zero_point, B, b_scale, b_zero_point, y_scale,
 *    y_zero_point (zero points may be NULL)
 * p: bd[4], a_bs[4], b_bs[4], c_bs[4] (batch dims and strides; c unused), M,
 *    N, K, a_ms, a_ks, b_ks, b_ns, a_zero_point per row, b_zero_point per
 *    column, c_ms, c_ns (unused), a_scale per row, b_scale per column,
 *    signedness flags (GLOW_Q_*); Y is dense. */
#include "kernels/quant.h"

#define QMM_CHUNK 256 /* columns of Y summed at a time */

/* Row by row, i-k-j, in chunks of QMM_CHUNK columns. */
static inline void qmm_rows(uint8_t *const *t, const int64_t *p) {
  uint8_t *y = t[0];
  const uint8_t *a = t[1], *b = t[4];
  const float *as = (const float *)t[2], *bs = (const float *)t[5];
  const int64_t *bd = p, *abs = p + 4, *bbs = p + 8;
  int64_t M = p[16], N = p[17], K = p[18], ams = p[19], aks = p[20], bks = p[21], bns = p[22];
  int64_t za_row = p[23], zb_col = p[24], as_row = p[27], bs_col = p[28];
  int xsg = (p[29] & GLOW_Q_X_SIGNED) != 0, wsg = (p[29] & GLOW_Q_W_SIGNED) != 0, ysg = (p[29] & GLOW_Q_Y_SIGNED) != 0;
  float ys = *(const float *)t[7];
  int32_t yz = glow_q_zero(t[8], 0, ysg);
  for (int64_t b0 = 0, bi = 0; b0 < bd[0]; b0++)
    for (int64_t b1 = 0; b1 < bd[1]; b1++)
      for (int64_t b2 = 0; b2 < bd[2]; b2++)
        for (int64_t b3 = 0; b3 < bd[3]; b3++, bi++) {
          const uint8_t *ab = a + b0 * abs[0] + b1 * abs[1] + b2 * abs[2] + b3 * abs[3];
          const uint8_t *bb = b + b0 * bbs[0] + b1 * bbs[1] + b2 * bbs[2] + b3 * bbs[3];
          for (int64_t m = 0; m < M; m++) {
            int32_t za = glow_q_zero(t[3], za_row ? m : 0, xsg);
            float am = as[as_row ? m : 0];
            for (int64_t n0 = 0; n0 < N; n0 += QMM_CHUNK) {
              int64_t nn = N - n0 < QMM_CHUNK ? N - n0 : QMM_CHUNK;
              int32_t acc[QMM_CHUNK], zb[QMM_CHUNK];
              for (int64_t j = 0; j < nn; j++) {
                acc[j] = 0;
                zb[j] = glow_q_zero(t[6], zb_col ? n0 + j : 0, wsg);
              }
              for (int64_t k = 0; k < K; k++) {
                int32_t av = glow_q_get(ab, m * ams + k * aks, xsg) - za;
                const uint8_t *br = bb + k * bks + n0 * bns;
                for (int64_t j = 0; j < nn; j++)
                  acc[j] += av * (glow_q_get(br, j * bns, wsg) - zb[j]);
              }
              uint8_t *yr = y + (bi * M + m) * N + n0;
              for (int64_t j = 0; j < nn; j++)
                yr[j] = glow_q_saturate((float)acc[j] * glow_q_multiplier(am, bs[bs_col ? n0 + j : 0], ys), yz, ysg);
            }
          }
        }
}

GLOW_KERNEL(qlinearmatmul) { qmm_rows(t, p); }
