/* QLinearMatMul: batched, strided int8/uint8 matrix products (int16:
 * qlinearmatmul16, int64 sums), int32 sums of
 * (A - a_zero_point) * (B - b_zero_point) requantized as kernels/quant.h says.
 * t: Y, A, a_scale, a_zero_point, B, b_scale, b_zero_point, y_scale,
 *    y_zero_point, bias (int32 per column of Y; zero points and bias may be
 *    NULL)
 * p: glow_abi_qmm (kernel-abi.h); Y is dense. */
#include "kernels/nn-vec.h"
#include "kernels/qgemm-mcu.h"
#include "kernels/quant.h"
#include "qdot.h"

#define QMM_CHUNK 256 /* columns of Y summed at a time */

/* Row by row, i-k-j, in chunks of QMM_CHUNK columns. T: the element type, ACC
 * the sums' (int32 for 8 bits, int64 for int16). */
#define QMM_ROWS(NAME, T, ACC, ELEM, ZERO, PUT)                                                                        \
  static inline void NAME(uint8_t *const *t, const int64_t *p) {                                                       \
    T *y = (T *)t[0];                                                                                                  \
    const T *a = (const T *)t[1], *b = (const T *)t[4];                                                                \
    const float *as = (const float *)t[2], *bs = (const float *)t[5];                                                  \
    const int32_t *bias = (const int32_t *)t[9];                                                                       \
    const glow_abi_qmm *qp = (const glow_abi_qmm *)p;                                                                  \
    const int64_t *bd = qp->mm.bd, *abs = qp->mm.abs, *bbs = qp->mm.bbs;                                               \
    int64_t M = qp->mm.M, N = qp->mm.N, K = qp->mm.K, ams = qp->mm.ams, aks = qp->mm.aks, bks = qp->mm.bks;            \
    int64_t bns = qp->mm.bns, za_row = qp->mm.za_row, zb_col = qp->mm.zb_col, as_row = qp->as_row;                     \
    int64_t bs_col = qp->bs_col;                                                                                       \
    int xsg = (qp->signs & GLOW_Q_X_SIGNED) != 0, wsg = (qp->signs & GLOW_Q_W_SIGNED) != 0;                            \
    int ysg = (qp->signs & GLOW_Q_Y_SIGNED) != 0;                                                                      \
    float ys = *(const float *)t[7];                                                                                   \
    int32_t yz = ZERO(t[8], 0, ysg);                                                                                   \
    for (int64_t b0 = 0, bi = 0; b0 < bd[0]; b0++)                                                                     \
      for (int64_t b1 = 0; b1 < bd[1]; b1++)                                                                           \
        for (int64_t b2 = 0; b2 < bd[2]; b2++)                                                                         \
          for (int64_t b3 = 0; b3 < bd[3]; b3++, bi++) {                                                               \
            const T *ab = a + b0 * abs[0] + b1 * abs[1] + b2 * abs[2] + b3 * abs[3];                                   \
            const T *bb = b + b0 * bbs[0] + b1 * bbs[1] + b2 * bbs[2] + b3 * bbs[3];                                   \
            for (int64_t m = 0; m < M; m++) {                                                                          \
              int32_t za = ZERO(t[3], za_row ? m : 0, xsg);                                                            \
              float am = as[as_row ? m : 0];                                                                           \
              for (int64_t n0 = 0; n0 < N; n0 += QMM_CHUNK) {                                                          \
                int64_t nn = N - n0 < QMM_CHUNK ? N - n0 : QMM_CHUNK;                                                  \
                ACC acc[QMM_CHUNK];                                                                                    \
                int32_t zb[QMM_CHUNK];                                                                                 \
                for (int64_t j = 0; j < nn; j++) {                                                                     \
                  acc[j] = bias ? bias[n0 + j] : 0;                                                                    \
                  zb[j] = ZERO(t[6], zb_col ? n0 + j : 0, wsg);                                                        \
                }                                                                                                      \
                for (int64_t k = 0; k < K; k++) {                                                                      \
                  ACC av = ELEM(ab[m * ams + k * aks], xsg) - za;                                                      \
                  const T *br = bb + k * bks + n0 * bns;                                                               \
                  for (int64_t j = 0; j < nn; j++)                                                                     \
                    acc[j] += av * (ELEM(br[j * bns], wsg) - zb[j]);                                                   \
                }                                                                                                      \
                uint8_t *yr = (uint8_t *)(y + (bi * M + m) * N + n0);                                                  \
                for (int64_t j = 0; j < nn; j++)                                                                       \
                  PUT(yr, j, (float)acc[j] * glow_q_multiplier(am, bs[bs_col ? n0 + j : 0], ys), yz, ysg);             \
              }                                                                                                        \
            }                                                                                                          \
          }                                                                                                            \
  }

QMM_ROWS(qmm_rows, uint8_t, int32_t, GLOW_Q8_ELEM, glow_q_zero, glow_q_put)
QMM_ROWS(qmm_rows16, int16_t, int64_t, GLOW_Q16_ELEM, glow_q16_zero, glow_q16_put)

/* ---- Fast path: B packed, 64 bytes = 16 columns x 4 rows ----
 * Y in tiles of MR rows x PV vectors of 16 columns: each step broadcasts 4
 * bytes of a row of A (unsigned: int8 A is flipped to A + 128 with its zero
 * point; or signed, see qconv.c) and adds their dot products with 16 columns of B (glow_qdot_s:
 * vpdpbusd where the CPU has VNNI). Zero points are corrections:
 *   sum (a - za)(b - zb) = acc - za' colsum(b) - zb rowsum(a') + K za' zb
 * with the column sums of B computed once per call (QMM_NMAX columns at most)
 * and the row sums of A once per tile of rows. */
#define QMM_MR_MAX 6
#define QMM_NMAX (GLOW_STACK_PANEL_FLOATS / 4)

/* 4 bytes of row a at k = 4 kq (those past K are 0), flipped. */
static inline uint32_t qmm_a4(const uint8_t *a, int64_t kq, int64_t K, uint32_t flip) {
  uint32_t v = 0;
  if (4 * kq + 4 <= K)
    __builtin_memcpy(&v, a + 4 * kq, 4);
  else
    for (int64_t j = 0; 4 * kq + j < K; j++)
      v |= (uint32_t)a[4 * kq + j] << 8 * j;
  return v ^ flip;
}

#define QMM_TILE(NAME, MR, PV)                                                                                         \
  static inline void NAME(glow_qi16 (*acc)[GLOW_QMM_TILE_BLOCKS], const uint8_t *const *ar, const int8_t *bp,          \
                          int64_t K, int64_t KQ, uint32_t flip) {                                                      \
    for (int r = 0; r < MR; r++)                                                                                       \
      for (int v = 0; v < PV; v++)                                                                                     \
        acc[r][v] = (glow_qi16){0};                                                                                    \
    for (int64_t kq = 0; kq < KQ; kq++)                                                                                \
      for (int r = 0; r < MR; r++) {                                                                                   \
        uint32_t a4 = qmm_a4(ar[r], kq, K, flip);                                                                      \
        for (int v = 0; v < PV; v++)                                                                                   \
          glow_qdot_s(&acc[r][v], (const glow_q64 *)(bp + (v * KQ + kq) * 64), a4);                                    \
      }                                                                                                                \
  }

QMM_TILE(qmm_tile_wide, 6, 4)
QMM_TILE(qmm_tile_narrow, 2, 2)
QMM_TILE(qmm_tile_row, 1, 4)

static inline void qmm_packed(uint8_t *const *t, const int64_t *p, int wide) {
  uint8_t *y = t[0];
  const uint8_t *a = t[1];
  const int8_t *b = (const int8_t *)t[4];
  const float *as = (const float *)t[2], *bs = (const float *)t[5];
  const int32_t *bias = (const int32_t *)t[9];
  const glow_abi_qmm *qp = (const glow_abi_qmm *)p;
  const int64_t *bd = qp->mm.bd, *abs = qp->mm.abs;
  int64_t M = qp->mm.M, N = qp->mm.N, K = qp->mm.K, ams = qp->mm.ams;
  int64_t za_row = qp->mm.za_row, zb_col = qp->mm.zb_col, as_row = qp->as_row, bs_col = qp->bs_col;
  int xsg = (qp->signs & GLOW_Q_X_SIGNED) != 0, ysg = (qp->signs & GLOW_Q_Y_SIGNED) != 0;
  float ys = *(const float *)t[7];
  int32_t yz = glow_q_zero(t[8], 0, ysg);
  int64_t KQ = (K + 3) / 4, NB = (N + 15) / 16;
  int xs8 = glow_qdot_x_signed(); /* A as the dot product takes it (see qconv.c) */
  uint32_t flip = xsg != xs8 ? 0x80808080u : 0;
  int mr = M == 1 ? 1 : wide ? 6 : 2, pv = M == 1 || wide ? 4 : 2;
  /* Column sums and zero points of B, per column (zero past N), QMM_NMAX columns at a time:
   * the columns go in chunks of that many, each a pass over A. */
  int32_t colsum[QMM_NMAX + 64] __attribute__((aligned(64)));
  int32_t zb[QMM_NMAX + 64] __attribute__((aligned(64)));
  for (int64_t nc = 0; nc < NB; nc += QMM_NMAX / 16) {
    int64_t NC = NB - nc < QMM_NMAX / 16 ? NB - nc : QMM_NMAX / 16;
    for (int64_t nb = 0; nb < NC; nb++) {
      glow_qi16 sum = {0};
      for (int64_t kq = 0; kq < KQ; kq++)
        glow_qdot_s(&sum, (const glow_q64 *)(b + ((nc + nb) * KQ + kq) * 64), 0x01010101u);
      *(glow_qi16 *)(colsum + nb * 16) = sum;
    }
    for (int64_t c = 0; c < NC * 16; c++)
      zb[c] = nc * 16 + c < N && t[6] ? ((const int8_t *)t[6])[zb_col ? nc * 16 + c : 0] : 0;
    for (int64_t b0 = 0, bi = 0; b0 < bd[0]; b0++)
      for (int64_t b1 = 0; b1 < bd[1]; b1++)
        for (int64_t b2 = 0; b2 < bd[2]; b2++)
          for (int64_t b3 = 0; b3 < bd[3]; b3++, bi++) {
            const uint8_t *ab = a + b0 * abs[0] + b1 * abs[1] + b2 * abs[2] + b3 * abs[3];
            for (int64_t m0 = 0; m0 < M; m0 += mr) {
              int64_t mn = M - m0 < mr ? M - m0 : mr;
              const uint8_t *ar[QMM_MR_MAX];
              int32_t rowsum[QMM_MR_MAX], za[QMM_MR_MAX];
              float am[QMM_MR_MAX];
              for (int r = 0; r < mr; r++) {
                int64_t m = m0 + (r < mn ? r : mn - 1);
                ar[r] = ab + m * ams;
                int32_t sum = 0;
                for (int64_t k = 0; k < K; k++)
                  sum += xs8 ? (int8_t)(ar[r][k] ^ (uint8_t)flip) : (uint8_t)(ar[r][k] ^ (uint8_t)flip);
                rowsum[r] = sum;
                za[r] = glow_q_zero(t[3], za_row ? m : 0, xsg) + (xsg && !xs8 ? 128 : 0) - (!xsg && xs8 ? 128 : 0);
                am[r] = as[as_row ? m : 0];
              }
              for (int64_t n0 = nc; n0 < nc + NC; n0 += pv) {
                glow_qi16 acc[QMM_MR_MAX][GLOW_QMM_TILE_BLOCKS];
                const int8_t *bp = b + n0 * KQ * 64;
                if (mr == 1)
                  qmm_tile_row(acc, ar, bp, K, KQ, flip);
                else if (wide)
                  qmm_tile_wide(acc, ar, bp, K, KQ, flip);
                else
                  qmm_tile_narrow(acc, ar, bp, K, KQ, flip);
                for (int r = 0; r < mn; r++)
                  for (int v = 0; v < pv && (n0 + v) * 16 < N; v++) {
                    int64_t c0 = (n0 + v) * 16;
                    const glow_qi16 *cs = (const glow_qi16 *)(colsum + c0 - nc * 16),
                                    *zbv = (const glow_qi16 *)(zb + c0 - nc * 16);
                    glow_qi16 s = acc[r][v] - za[r] * *cs - rowsum[r] * *zbv + (int32_t)K * za[r] * *zbv;
                    for (int l = 0; bias && l < 16 && c0 + l < N; l++)
                      s[l] += bias[c0 + l];
                    glow_qf16 m;
                    for (int l = 0; l < 16; l++)
                      m[l] = glow_q_multiplier(am[r], bs[bs_col && c0 + l < N ? c0 + l : 0], ys);
                    uint8_t q[16];
                    glow_q_saturate16(q, (const int32_t *)&s, (const float *)&m, yz, ysg);
                    uint8_t *yr = y + (bi * M + m0 + r) * N + c0;
                    for (int l = 0; l < 16 && c0 + l < N; l++)
                      yr[l] = q[l];
                  }
              }
            }
          }
  }
}

/* Cortex-M's path where the target is one (qgemm-mcu.h); packed B, else the row loops. */
GLOW_KERNEL(qlinearmatmul) {
  if (glow_qdot_mcu() && qmcu_matmul(t, p))
    return;
  if (((const glow_abi_qmm *)p)->b_packed) /* only qmm_packed reads that layout */
    qmm_packed(t, p, glow_qdot_wide());
  else
    qmm_rows(t, p);
}

/* int16 A, B and Y (Int16 quantization): the row loops, int64 sums. */
GLOW_KERNEL(qlinearmatmul16) { qmm_rows16(t, p); }
