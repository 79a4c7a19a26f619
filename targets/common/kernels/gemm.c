/* Batched, strided matrix products (Gemm, MatMul, MatMulInteger):
 *   Y[b][m][n] = alpha * sum_k A[b][m][k] * B[b][k][n] + beta * C[b][m][n]
 * t: Y, A, B, C (C may be NULL)
 * p: glow_abi_mm (kernel-abi.h); Y is dense. */
#include "kernel.h"
#include "kmath.h"
#include "kernels/epilogue.h"
#include "kernels/nn-vec.h"
#include "qdot.h" /* glow_qdot_wide(): the register tile */

/* The parameters (a glow_abi_mm) by name. */
#define MM_PARAMS                                                                                                      \
  const glow_abi_mm *mp = (const glow_abi_mm *)p;                                                                      \
  const int64_t *bd = mp->bd, *abs = mp->abs, *bbs = mp->bbs, *cbs = mp->cbs;                                          \
  int64_t M = mp->M, N = mp->N, K = mp->K, ams = mp->ams, aks = mp->aks, bks = mp->bks, bns = mp->bns;                 \
  int64_t cms = mp->cms, cns = mp->cns

/* Walks the batch: ao, bo, co are the operands' offsets, yb the output matrix. */
#define MM_BATCH_LOOP(...)                                                                                             \
  for (int64_t b0 = 0, bi = 0; b0 < bd[0]; b0++)                                                                       \
    for (int64_t b1 = 0; b1 < bd[1]; b1++)                                                                             \
      for (int64_t b2 = 0; b2 < bd[2]; b2++)                                                                           \
        for (int64_t b3 = 0; b3 < bd[3]; b3++, bi++) {                                                                 \
          int64_t ao = b0 * abs[0] + b1 * abs[1] + b2 * abs[2] + b3 * abs[3];                                          \
          int64_t bo = b0 * bbs[0] + b1 * bbs[1] + b2 * bbs[2] + b3 * bbs[3];                                          \
          int64_t co = b0 * cbs[0] + b1 * cbs[1] + b2 * cbs[2] + b3 * cbs[3];                                          \
          (void)co;                                                                                                    \
          __VA_ARGS__                                                                                                  \
        }

/* Row by row, i-k-j: each row of Y accumulates scaled rows of B. */
#define MATMUL(SUF, T)                                                                                                 \
  GLOW_KERNEL(matmul_##SUF) {                                                                                          \
    T *y = (T *)t[0];                                                                                                  \
    const T *a = (const T *)t[1], *b = (const T *)t[2], *c = (const T *)t[3];                                          \
    MM_PARAMS;                                                                                                         \
    double alpha = glow_pf(mp->alpha), beta = glow_pf(mp->beta);                                                       \
    int plain = alpha == 1.0 && beta == 1.0;                                                                           \
    MM_BATCH_LOOP({                                                                                                    \
      for (int64_t m = 0; m < M; m++) {                                                                                \
        T *yr = y + (bi * M + m) * N;                                                                                  \
        for (int64_t n = 0; n < N; n++)                                                                                \
          yr[n] = 0;                                                                                                   \
        for (int64_t k = 0; k < K; k++) {                                                                              \
          T av = a[ao + m * ams + k * aks];                                                                            \
          const T *br = b + bo + k * bks;                                                                              \
          for (int64_t n = 0; n < N; n++)                                                                              \
            yr[n] += av * br[n * bns];                                                                                 \
        }                                                                                                              \
        const T *cr = c ? c + co + m * cms : 0;                                                                        \
        for (int64_t n = 0; n < N; n++) {                                                                              \
          T cv = cr ? cr[n * cns] : (T)0;                                                                              \
          yr[n] = plain ? yr[n] + cv : (T)(alpha * (double)yr[n] + beta * (double)cv);                                 \
        }                                                                                                              \
      }                                                                                                                \
    })                                                                                                                 \
  }

MATMUL(ref_f32, float)
MATMUL(f64, double)
MATMUL(i32, int32_t)
MATMUL(i64, int64_t)
MATMUL(u32, uint32_t)
MATMUL(u64, uint64_t)

/* int32 sums of (A - a_zero_point) * (B - b_zero_point).
 * t: Y, A, B, a_zero_point, b_zero_point (either may be NULL)
 * p: glow_abi_mm, za_row and zb_col in place of alpha and beta. */
#define MATMUL_INTEGER(SUF, TA, TB)                                                                                    \
  GLOW_KERNEL(matmul_integer_##SUF) {                                                                                  \
    int32_t *y = (int32_t *)t[0];                                                                                      \
    const TA *a = (const TA *)t[1], *za = (const TA *)t[3];                                                            \
    const TB *b = (const TB *)t[2], *zb = (const TB *)t[4];                                                            \
    MM_PARAMS;                                                                                                         \
    int64_t za_row = mp->za_row, zb_col = mp->zb_col;                                                                  \
    (void)cms, (void)cns;                                                                                              \
    MM_BATCH_LOOP({                                                                                                    \
      for (int64_t m = 0; m < M; m++) {                                                                                \
        int32_t *yr = y + (bi * M + m) * N;                                                                            \
        int32_t zav = za ? (int32_t)za[za_row ? m : 0] : 0;                                                            \
        for (int64_t n = 0; n < N; n++)                                                                                \
          yr[n] = 0;                                                                                                   \
        for (int64_t k = 0; k < K; k++) {                                                                              \
          int32_t av = (int32_t)a[ao + m * ams + k * aks] - zav;                                                       \
          const TB *br = b + bo + k * bks;                                                                             \
          for (int64_t n = 0; n < N; n++)                                                                              \
            yr[n] += av * ((int32_t)br[n * bns] - (zb ? (int32_t)zb[zb_col ? n : 0] : 0));                             \
        }                                                                                                              \
      }                                                                                                                \
    })                                                                                                                 \
  }

MATMUL_INTEGER(u8_u8, uint8_t, uint8_t)
MATMUL_INTEGER(u8_i8, uint8_t, int8_t)
MATMUL_INTEGER(i8_u8, int8_t, uint8_t)
MATMUL_INTEGER(i8_i8, int8_t, int8_t)

/* Fast float32 path: Y in tiles of MM_MR rows x 16 columns (MM_MR vector
 * accumulators); each step of the reduction broadcasts one value of A per row
 * and adds it times 16 values of a row of B. Those come straight from B when
 * its rows are contiguous and either few rows of Y reuse them or B has at
 * least 2 * MM_NC columns (a 1x1 conv's planes of 14 x 14 and up: copying B
 * cost more than the copy saved, 42% of a 32 -> 16 channel 1x1 conv on
 * 112 x 112), else from a stack panel that packs B (or B^T) per block of MM_NC
 * columns (as 16-column sub-panels) and chunk of K; a block's last 16 columns
 * come from the panel when they are fewer than 16 (zero-padded). A single row
 * of Y times a transposed B (a fully connected layer), or a single column (A times a vector), instead takes dot
 * products along K, 16 lanes at a time (mm_dots). */
#define MM_MR 6
#define MM_NC 64

#define MM_PANEL GLOW_STACK_PANEL_FLOATS

static inline float mm_hsum(const glow_nn_v16 *v) {
  float s = 0.0f;
  for (int j = 0; j < 16; j++)
    s += (*v)[j];
  return s;
}

/* Stores nb <= 16 outputs of a row of Y from *acc; on the last chunk of K (last)
 * they are final: alpha * acc + beta * C (cr: C's element for the first, cns
 * apart; NULL: none). The epilogue comes after, over the tile's whole rows. */
static inline __attribute__((always_inline)) void mm_store(const glow_nn_v16 *acc, float *yr, int64_t nb, int last,
                                                           float alpha, float beta, const float *cr, int64_t cns) {
  glow_nn_v16 v = *acc;
  if (last) {
    v *= alpha;
    if (cr && cns == 0)
      v += beta * cr[0];
    else if (cr && nb == 16)
      for (int j = 0; j < 16; j++)
        v[j] += beta * cr[j * cns];
    else if (cr)
      for (int j = 0; j < nb; j++)
        v[j] += beta * cr[j * cns];
  }
  if (nb == 16)
    *(glow_nn_v16 *)yr = v;
  else
    for (int j = 0; j < nb; j++)
      yr[j] = v[j];
}

/* y[i] = alpha * sum_k v[k] * R[i][k] (+ beta * C[i * cs]) for i in [i0, i1) of
 * n rows, R's rows rs apart and contiguous along k: four dot products at a time,
 * 16 lanes each, then the epilogue (res: the residual at y; NULL: none). */
static inline void mm_dots(float *y, const float *v, const float *r, int64_t rs, int64_t i0, int64_t i1, int64_t n,
                           int64_t K, float alpha, float beta, const float *c, int64_t cs, glow_epi e,
                           const float *res) {
  for (int64_t n0 = i0; n0 < i1; n0 += 4) {
    glow_nn_v16 acc[4] = {0};
    float tail[4] = {0};
    const float *rn[4];
    for (int j = 0; j < 4; j++)
      rn[j] = r + (n0 + j < n ? n0 + j : n - 1) * rs;
    int64_t k = 0;
    for (; k + 16 <= K; k += 16) {
      glow_nn_v16 vv = *(const glow_nn_v16 *)(v + k);
      for (int j = 0; j < 4; j++)
        acc[j] += vv * *(const glow_nn_v16 *)(rn[j] + k);
    }
    for (; k < K; k++)
      for (int j = 0; j < 4; j++)
        tail[j] += v[k] * rn[j][k];
    for (int j = 0; j < 4 && n0 + j < n; j++) {
      float o = alpha * (mm_hsum(&acc[j]) + tail[j]);
      y[n0 + j] = c ? o + beta * c[(n0 + j) * cs] : o;
    }
    if (res || e.kind != GLOW_EPI_NONE)
      glow_epi_row(e, y + n0, res ? res + n0 : 0, n - n0 < 4 ? n - n0 : 4);
  }
}

/* p: glow_abi_matmul; t[4] and its epi: the epilogue (epilogue.h), applied as each output is final.
 * Part `part` of `nparts` (threads): a range of Y's columns, in blocks of MM_NC
 * (of 4 outputs for dot products), or of its rows where there are too few column
 * blocks; each output is summed as in one part. */
GLOW_KERNEL_PART(matmul_f32) {
  float *y = (float *)t[0];
  const float *a = (const float *)t[1], *b = (const float *)t[2], *c = (const float *)t[3];
  MM_PARAMS;
  float alpha = (float)glow_pf(mp->alpha), beta = (float)glow_pf(mp->beta);
  const float *res = (const float *)t[4];
  glow_epi e = glow_epi_get(&((const glow_abi_matmul *)p)->epi);
  if ((bns != 1 && bks != 1) || K == 0) {
    if (part == 0) {
      glow_k_matmul_ref_f32(t, p);
      if (res || e.kind != GLOW_EPI_NONE)
        glow_epi_row(e, y, res, bd[0] * bd[1] * bd[2] * bd[3] * M * N); /* Y is dense */
    }
    return;
  }
  /* One row of Y times a transposed B (a fully connected layer), or A times one
   * column of B (a 1x1 conv on one pixel, squeeze-excite): dot products along K. */
  int dots = aks == 1 && bks == 1 && (M == 1 || N == 1), by_row = dots && M > 1;
  int64_t units = by_row ? M : N, q = dots ? 4 : MM_NC, nq = (units + q - 1) / q;
  /* Columns split 16 at a time (a part's last block of MM_NC may be narrower): whole
   * blocks left 128 columns to one part and 68 to the other on a 14 x 14 plane. */
  int64_t gq = dots ? 4 : 16, ng = (units + gq - 1) / gq;
  int64_t nlo = ng * part / nparts * gq, nhi = ng * (part + 1) / nparts * gq;
  nhi = nhi < units ? nhi : units;
  /* Too few column blocks to share (a 1x1 conv on a 7x7 plane has one): the
   * parts take ranges of MM_MR-row tiles instead, every column each. */
  int64_t mt = (M + MM_MR - 1) / MM_MR, mlo = 0, mhi = M;
  if (!dots && nparts > 1 && nq < 2 * nparts && mt >= 2 * nparts) {
    nlo = 0, nhi = N;
    mlo = mt * part / nparts * MM_MR;
    mhi = mt * (part + 1) / nparts * MM_MR;
    mhi = mhi < M ? mhi : M;
  }
  float panel[MM_PANEL];
  int64_t kchunk = MM_PANEL / MM_NC < K ? MM_PANEL / MM_NC : K;
  MM_BATCH_LOOP({
    float *yb = y + bi * M * N;
    const float *ab = a + ao, *bb = b + bo, *cb = c ? c + co : 0;
    if (dots) {
      mm_dots(yb, by_row ? bb : ab, by_row ? ab : bb, by_row ? ams : bns, nlo, nhi, units, K, alpha, beta, cb,
              by_row ? cms : cns, e, res ? res + (yb - y) : 0);
      continue;
    }
    int direct = bns == 1 && (M < 2 * MM_MR || N >= 2 * MM_NC);
    for (int64_t n1 = nlo; n1 < nhi; n1 += MM_NC) {
      int64_t nsub = (nhi - n1 < MM_NC ? nhi - n1 + 15 : MM_NC) / 16;
      for (int64_t k0 = 0; k0 < K; k0 += kchunk) {
        int64_t kn = K - k0 < kchunk ? K - k0 : kchunk;
        int last = k0 + kn == K;
        /* Sub-panel s: columns n1 + 16 s.., packed at panel + s * kchunk * 16. */
        for (int64_t sub = 0; sub < nsub; sub++) {
          int64_t n0 = n1 + 16 * sub, nb = nhi - n0 < 16 ? nhi - n0 : 16;
          float *ps = panel + sub * kchunk * 16;
          if (direct && nb == 16)
            continue;
          if (bks == 1) {
            glow_nn_pack_t16(ps, bb + n0 * bns + k0, bns, nb, kn);
          } else {
            for (int64_t k = 0; k < kn; k++)
              for (int j = 0; j < 16; j++)
                ps[k * 16 + j] = j < nb ? bb[(k0 + k) * bks + n0 + j] : 0.0f;
          }
        }
        for (int64_t m0 = mlo; m0 < mhi; m0 += MM_MR) {
          const float *ar[MM_MR];
          int64_t row[MM_MR];
          for (int r = 0; r < MM_MR; r++) {
            row[r] = m0 + r < mhi ? m0 + r : mhi - 1; /* this part's rows only */
            ar[r] = ab + row[r] * ams + k0 * aks;
          }
          /* Sub-panel q's rows: packed, or B's own where direct. */
          const float *bq[MM_NC / 16];
          int64_t bstride[MM_NC / 16];
          for (int64_t sub = 0; sub < nsub; sub++) {
            int64_t n0 = n1 + 16 * sub, nb = nhi - n0 < 16 ? nhi - n0 : 16;
            int own = direct && nb == 16;
            bq[sub] = own ? bb + k0 * bks + n0 : panel + sub * kchunk * 16;
            bstride[sub] = own ? bks : 16;
          }
          int wide = glow_qdot_wide() && nsub == MM_NC / 16 && nhi - n1 >= MM_NC;
          if (wide) {
            /* 32 registers of 16 floats: all MM_NC columns at once (6 x 4 accumulators). */
            glow_nn_v16 acc[MM_MR][MM_NC / 16];
            for (int r = 0; r < MM_MR; r++)
              for (int q = 0; q < MM_NC / 16; q++)
                acc[r][q] = k0 ? *(const glow_nn_v16 *)(yb + row[r] * N + n1 + 16 * q) : (glow_nn_v16){0};
            for (int64_t k = 0; k < kn; k++) {
              glow_nn_v16 bv[MM_NC / 16];
              for (int q = 0; q < MM_NC / 16; q++)
                bv[q] = *(const glow_nn_v16 *)(bq[q] + k * bstride[q]);
              for (int r = 0; r < MM_MR; r++) {
                float av = ar[r][k * aks];
                for (int q = 0; q < MM_NC / 16; q++)
                  acc[r][q] += av * bv[q];
              }
            }
            for (int r = 0; r < MM_MR && m0 + r < mhi; r++)
              for (int q = 0; q < MM_NC / 16; q++)
                mm_store(&acc[r][q], yb + row[r] * N + n1 + 16 * q, 16, last, alpha, beta,
                         cb ? cb + row[r] * cms + (n1 + 16 * q) * cns : 0, cns);
          }
          for (int64_t sub = 0; !wide && sub < nsub; sub++) {
            int64_t n0 = n1 + 16 * sub, nb = nhi - n0 < 16 ? nhi - n0 : 16;
            const float *bk = bq[sub];
            glow_nn_v16 acc[MM_MR];
            for (int r = 0; r < MM_MR; r++) {
              if (k0 && nb == 16) {
                acc[r] = *(const glow_nn_v16 *)(yb + row[r] * N + n0);
              } else {
                for (int j = 0; j < 16; j++)
                  acc[r][j] = k0 && j < nb ? yb[row[r] * N + n0 + j] : 0.0f;
              }
            }
            for (int64_t k = 0; k < kn; k++, bk += bstride[sub]) {
              glow_nn_v16 bv = *(const glow_nn_v16 *)bk;
              for (int r = 0; r < MM_MR; r++)
                acc[r] += ar[r][k * aks] * bv;
            }
            for (int r = 0; r < MM_MR && m0 + r < mhi; r++)
              mm_store(&acc[r], yb + row[r] * N + n0, nb, last, alpha, beta, cb ? cb + row[r] * cms + n0 * cns : 0, cns);
          }
          /* The epilogue over the tile's whole rows of up to MM_NC outputs, once they
           * are final: one call a row keeps its constants in registers (per 16
           * outputs, an activation like x * sigmoid(x) reloaded them each time); a
           * loop, not MM_MR copies of the vectorized row loop (compile time). */
          _Pragma("clang loop unroll(disable)")
          for (int r = 0; last && (res || e.kind != GLOW_EPI_NONE) && r < MM_MR && m0 + r < mhi; r++) {
            float *yr = yb + row[r] * N + n1;
            glow_epi_row(e, yr, res ? res + (yr - y) : 0, nhi - n1 < MM_NC ? nhi - n1 : MM_NC);
          }
        }
      }
    }
  })
}

GLOW_KERNEL(matmul_f32) { glow_k_matmul_f32_part(t, p, 0, 1); }
