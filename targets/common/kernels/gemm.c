/* Batched, strided matrix products (Gemm, MatMul, MatMulInteger):
 *   Y[b][m][n] = alpha * sum_k A[b][m][k] * B[b][k][n] + beta * C[b][m][n]
 * t: Y, A, B, C (C may be NULL)
 * p: bd[4], a_bs[4], b_bs[4], c_bs[4] (batch dims and strides), M, N, K,
 *    a_ms, a_ks, b_ks, b_ns, alpha, beta, c_ms, c_ns; Y is dense. */
#include "kernel.h"

#define MM_PARAMS                                                                                                  \
  const int64_t *bd = p, *abs = p + 4, *bbs = p + 8, *cbs = p + 12;                                                \
  int64_t M = p[16], N = p[17], K = p[18], ams = p[19], aks = p[20], bks = p[21], bns = p[22];                     \
  int64_t cms = p[25], cns = p[26]

/* Walks the batch: ao, bo, co are the operands' offsets, yb the output matrix. */
#define MM_BATCH_LOOP(BODY)                                                                                        \
  for (int64_t b0 = 0, bi = 0; b0 < bd[0]; b0++)                                                                   \
    for (int64_t b1 = 0; b1 < bd[1]; b1++)                                                                         \
      for (int64_t b2 = 0; b2 < bd[2]; b2++)                                                                       \
        for (int64_t b3 = 0; b3 < bd[3]; b3++, bi++) {                                                             \
          int64_t ao = b0 * abs[0] + b1 * abs[1] + b2 * abs[2] + b3 * abs[3];                                      \
          int64_t bo = b0 * bbs[0] + b1 * bbs[1] + b2 * bbs[2] + b3 * bbs[3];                                      \
          int64_t co = b0 * cbs[0] + b1 * cbs[1] + b2 * cbs[2] + b3 * cbs[3];                                      \
          (void)co;                                                                                                \
          BODY;                                                                                                    \
        }

/* Row by row, i-k-j: each row of Y accumulates scaled rows of B. */
#define MATMUL(SUF, T)                                                                                             \
  GLOW_KERNEL(matmul_##SUF) {                                                                                      \
    T *y = (T *)t[0];                                                                                              \
    const T *a = (const T *)t[1], *b = (const T *)t[2], *c = (const T *)t[3];                                    \
    MM_PARAMS;                                                                                                     \
    double alpha = glow_pf(p[23]), beta = glow_pf(p[24]);                                                          \
    int plain = alpha == 1.0 && beta == 1.0;                                                                       \
    MM_BATCH_LOOP({                                                                                                \
      for (int64_t m = 0; m < M; m++) {                                                                            \
        T *yr = y + (bi * M + m) * N;                                                                              \
        for (int64_t n = 0; n < N; n++)                                                                            \
          yr[n] = 0;                                                                                               \
        for (int64_t k = 0; k < K; k++) {                                                                          \
          T av = a[ao + m * ams + k * aks];                                                                        \
          const T *br = b + bo + k * bks;                                                                          \
          for (int64_t n = 0; n < N; n++)                                                                          \
            yr[n] += av * br[n * bns];                                                                             \
        }                                                                                                          \
        const T *cr = c ? c + co + m * cms : 0;                                                                    \
        for (int64_t n = 0; n < N; n++) {                                                                          \
          T cv = cr ? cr[n * cns] : (T)0;                                                                          \
          yr[n] = plain ? yr[n] + cv : (T)(alpha * (double)yr[n] + beta * (double)cv);                             \
        }                                                                                                          \
      }                                                                                                            \
    })                                                                                                             \
  }

MATMUL(f32, float)
MATMUL(f64, double)
MATMUL(i32, int32_t)
MATMUL(i64, int64_t)
MATMUL(u32, uint32_t)
MATMUL(u64, uint64_t)

/* int32 sums of (A - a_zero_point) * (B - b_zero_point).
 * t: Y, A, B, a_zero_point, b_zero_point (either may be NULL)
 * p: as above, with "a_zero_point per row" and "b_zero_point per column" in place of alpha and beta. */
#define MATMUL_INTEGER(SUF, TA, TB)                                                                                \
  GLOW_KERNEL(matmul_integer_##SUF) {                                                                              \
    int32_t *y = (int32_t *)t[0];                                                                                  \
    const TA *a = (const TA *)t[1], *za = (const TA *)t[3];                                                      \
    const TB *b = (const TB *)t[2], *zb = (const TB *)t[4];                                                      \
    MM_PARAMS;                                                                                                     \
    int64_t za_row = p[23], zb_col = p[24];                                                                        \
    (void)cms, (void)cns;                                                                                          \
    MM_BATCH_LOOP({                                                                                                \
      for (int64_t m = 0; m < M; m++) {                                                                            \
        int32_t *yr = y + (bi * M + m) * N;                                                                        \
        int32_t zav = za ? (int32_t)za[za_row ? m : 0] : 0;                                                        \
        for (int64_t n = 0; n < N; n++)                                                                            \
          yr[n] = 0;                                                                                               \
        for (int64_t k = 0; k < K; k++) {                                                                          \
          int32_t av = (int32_t)a[ao + m * ams + k * aks] - zav;                                                   \
          const TB *br = b + bo + k * bks;                                                                         \
          for (int64_t n = 0; n < N; n++)                                                                          \
            yr[n] += av * ((int32_t)br[n * bns] - (zb ? (int32_t)zb[zb_col ? n : 0] : 0));                         \
        }                                                                                                          \
      }                                                                                                            \
    })                                                                                                             \
  }

MATMUL_INTEGER(u8_u8, uint8_t, uint8_t)
MATMUL_INTEGER(u8_i8, uint8_t, int8_t)
MATMUL_INTEGER(i8_u8, int8_t, uint8_t)
MATMUL_INTEGER(i8_i8, int8_t, int8_t)
