/* QLinearMatMul on Cortex-M (kernels/qgemm.c takes it where glow_qdot_mcu()),
 * for packed B (qgemm.c's layout: each 4 rows of a column are one word, the
 * next 4 rows 64 bytes further), int8/uint8 A: blocks of 1 row of A x 4
 * columns of Y, with the plain, DSP or MVE steps of kernels/qmcu.h.
 *   DSP: B's words taken as two int16 pairs (bytes 0 and 2, 1 and 3: SXTB16)
 *     and A's 4 bytes the same way (UXTB16 or SXTB16, then SSUB16 of the zero
 *     point), two SMLADs a word; plain: a - za times each byte of B;
 *     sum (a - za)(b - zb) = sum (a - za) b - zb sum (a - za);
 *   MVE: 16 rows of a column gathered from 4 words (VLDRW gather) and A's 16
 *     bytes as int8 a' (uint8 A flipped, za with it), one VMLADAVA, B's column
 *     sums with VADDVA:
 *       sum (a' - za')(b - zb) = sum a' b - za' sum b - zb sum a' + K za' zb.
 * Each sum is requantized as kernels/quant.h says (the same bytes as the other
 * targets' kernels). */
#include "kernels/qmcu.h"

/* The 4 bytes of row a at k = 4 kq, those past K 0 (A may end there). */
static inline uint32_t qmcu_a4(const uint8_t *a, int32_t kq, int32_t K) {
  if (4 * kq + 4 <= K)
    return qmcu_load32(a + 4 * kq);
  uint32_t v = 0;
  for (int32_t j = 0; 4 * kq + j < K; j++)
    v |= (uint32_t)a[4 * kq + j] << 8 * j;
  return v;
}

/* Sums of row a (K values, less za) with the 4 columns whose first words are at bp. */
static inline void qmcu_mm_dot(int32_t *s, const uint8_t *a, const int8_t *bp, int32_t K, int32_t za, int xsg) {
  int32_t KQ = (K + 3) / 4, s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  if (QMCU_DSP) {
    int32_t zz = (int32_t)((uint32_t)(uint16_t)za * 0x10001u);
#pragma clang loop unroll(disable) /* unrolled, it spills */
    for (int32_t kq = 0; kq < KQ; kq++, bp += 64) {
      uint32_t av = qmcu_a4(a, kq, K);
      int32_t ae = __ssub16(qmcu_even16(av, xsg), zz), ao = __ssub16(qmcu_odd16(av, xsg), zz);
      uint32_t b0 = qmcu_load32(bp), b1 = qmcu_load32(bp + 4), b2 = qmcu_load32(bp + 8), b3 = qmcu_load32(bp + 12);
      s0 = __smlad(qmcu_even16(b0, 1), ae, __smlad(qmcu_odd16(b0, 1), ao, s0));
      s1 = __smlad(qmcu_even16(b1, 1), ae, __smlad(qmcu_odd16(b1, 1), ao, s1));
      s2 = __smlad(qmcu_even16(b2, 1), ae, __smlad(qmcu_odd16(b2, 1), ao, s2));
      s3 = __smlad(qmcu_even16(b3, 1), ae, __smlad(qmcu_odd16(b3, 1), ao, s3));
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
    return;
  }
#endif
  for (int32_t kq = 0; kq < KQ; kq++, bp += 64)
    for (int32_t i = 0; i < 4 && 4 * kq + i < K; i++) {
      int32_t av = GLOW_Q8_ELEM(a[4 * kq + i], xsg) - za;
      s0 += av * bp[i];
      s1 += av * bp[4 + i];
      s2 += av * bp[8 + i];
      s3 += av * bp[12 + i];
    }
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
}

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
/* Sums of row a (int8 a' = a ^ flip) with the 4 columns at bp, and the columns' sums into cs. */
static inline int32x4_t qmcu_mm_dot_mve(int32x4_t *cs, const uint8_t *a, const int8_t *bp, int32_t K, uint8_t flip) {
  int32_t KQ = (K + 3) / 4, s0 = 0, s1 = 0, s2 = 0, s3 = 0, c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  const uint32x4_t off = {0, 64, 128, 192};
  for (int32_t kq = 0; kq < KQ; kq += 4, a += 16, bp += 256) {
    mve_pred16_t pa = vctp8q((uint32_t)(K - 4 * kq)), pb = vctp32q((uint32_t)(KQ - kq));
    int8x16_t av = vldrbq_z_s8((const int8_t *)a, pa);
    av = veorq_m_s8(vdupq_n_s8(0), av, vdupq_n_s8((int8_t)flip), pa);
    int8x16_t b0 = vreinterpretq_s8_s32(vldrwq_gather_offset_z_s32((const int32_t *)bp, off, pb));
    int8x16_t b1 = vreinterpretq_s8_s32(vldrwq_gather_offset_z_s32((const int32_t *)(bp + 4), off, pb));
    int8x16_t b2 = vreinterpretq_s8_s32(vldrwq_gather_offset_z_s32((const int32_t *)(bp + 8), off, pb));
    int8x16_t b3 = vreinterpretq_s8_s32(vldrwq_gather_offset_z_s32((const int32_t *)(bp + 12), off, pb));
    s0 = vmladavaq_s8(s0, av, b0);
    s1 = vmladavaq_s8(s1, av, b1);
    s2 = vmladavaq_s8(s2, av, b2);
    s3 = vmladavaq_s8(s3, av, b3);
    c0 = vaddvaq_s8(c0, b0);
    c1 = vaddvaq_s8(c1, b1);
    c2 = vaddvaq_s8(c2, b2);
    c3 = vaddvaq_s8(c3, b3);
  }
  int32x4_t s = vsetq_lane_s32(s3, vsetq_lane_s32(s2, vsetq_lane_s32(s1, vdupq_n_s32(s0), 1), 2), 3);
  *cs = vsetq_lane_s32(c3, vsetq_lane_s32(c2, vsetq_lane_s32(c1, vdupq_n_s32(c0), 1), 2), 3);
  return s;
}
#endif

/* Packed B (glow_abi_qmm's b_packed); the caller runs its own loops otherwise. */
static inline int qmcu_matmul(uint8_t *const *t, const int64_t *p) {
  const glow_abi_qmm *qp = (const glow_abi_qmm *)p;
  if (!qp->b_packed || qp->mm.M * qp->mm.K >= (1 << 30) || qp->mm.N * qp->mm.K >= (1 << 30))
    return 0;
  uint8_t *y = t[0];
  const uint8_t *a = t[1];
  const int8_t *b = (const int8_t *)t[4];
  const float *as = (const float *)t[2], *bs = (const float *)t[5];
  const int32_t *bias = (const int32_t *)t[9];
  const int64_t *bd = qp->mm.bd, *abs = qp->mm.abs;
  int32_t M = (int32_t)qp->mm.M, N = (int32_t)qp->mm.N, K = (int32_t)qp->mm.K, ams = (int32_t)qp->mm.ams;
  int32_t za_row = (int32_t)qp->mm.za_row, zb_col = (int32_t)qp->mm.zb_col, as_row = (int32_t)qp->as_row;
  int32_t bs_col = (int32_t)qp->bs_col;
  int xsg = (qp->signs & GLOW_Q_X_SIGNED) != 0, ysg = (qp->signs & GLOW_Q_Y_SIGNED) != 0;
  float ys = *(const float *)t[7];
  int32_t yz = glow_q_zero(t[8], 0, ysg), KQ = (K + 3) / 4;
  int mve = QMCU_MVE;
  uint8_t flip = mve && !xsg ? 0x80 : 0; /* MVE: A as int8 a' */
  int bzero = 1;
  for (int32_t c = 0; t[6] && c < (zb_col ? N : 1); c++)
    bzero &= ((const int8_t *)t[6])[c] == 0;
  for (int64_t b0 = 0, bi = 0; b0 < bd[0]; b0++)
    for (int64_t b1 = 0; b1 < bd[1]; b1++)
      for (int64_t b2 = 0; b2 < bd[2]; b2++)
        for (int64_t b3 = 0; b3 < bd[3]; b3++, bi++) {
          const uint8_t *ab = a + b0 * abs[0] + b1 * abs[1] + b2 * abs[2] + b3 * abs[3];
          for (int32_t m = 0; m < M; m++) {
            const uint8_t *ar = ab + m * ams;
            int32_t za = glow_q_zero(t[3], za_row ? m : 0, xsg) - (flip ? 128 : 0), rsum = 0;
            float am = as[as_row ? m : 0];
            for (int32_t k = 0; !bzero && k < K; k++)
              rsum += (flip ? (int8_t)(ar[k] ^ flip) : GLOW_Q8_ELEM(ar[k], xsg)) - (mve ? 0 : za);
            uint8_t *yr = y + ((int32_t)bi * M + m) * N;
            for (int32_t c0 = 0; c0 < N; c0 += 4) {
              const int8_t *bp = b + (c0 / 16 * KQ) * 64 + c0 % 16 * 4;
              int32_t s[4], cs[4] = {0, 0, 0, 0};
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
              if (mve) {
                int32x4_t csv, sv = qmcu_mm_dot_mve(&csv, ar, bp, K, flip);
                vst1q_s32(s, sv);
                vst1q_s32(cs, csv);
              } else
#endif
                qmcu_mm_dot(s, ar, bp, K, za, xsg);
              for (int32_t l = 0; l < 4 && c0 + l < N; l++) {
                int32_t c = c0 + l, zb = t[6] ? ((const int8_t *)t[6])[zb_col ? c : 0] : 0;
                int32_t v = s[l] - zb * rsum + (bias ? bias[c] : 0);
                if (mve)
                  v += -za * cs[l] + K * za * zb;
                qmcu_rq rq = qmcu_rq_of(glow_q_multiplier(am, bs[bs_col ? c : 0], ys), yz, ysg);
                yr[c] = qmcu_rq_put(&rq, v);
              }
            }
          }
        }
  return 1;
}
