/* Float32 3x3 convolutions with unit strides and dilations, one group, by
 * Winograd's minimal filtering F(4x4, 3x3) (Lavin and Gray, "Fast Algorithms for
 * Convolutional Neural Networks", 2015): each 4x4 block of outputs ("tile") of
 * an output channel is A^T [sum over c of U[c] . V[c]] A, where V[c] = B^T d B
 * is the tile's 6x6 input patch of channel c transformed and U = G g G^T the
 * 3x3 filter transformed (the compiler does that once: passes/winograd.c). The
 * sum is 36 matrix products, one per position xi of the 6x6 transform:
 * M[xi][tile][m] = sum_c V[xi][tile][c] * U[xi][c][m], 4 multiply-adds per
 * output against 9 for the direct kernel.
 *
 * Work goes in units of 3 groups of 6 tiles (raster order over the output's
 * tiles) x one block of 16 * nb output channels: the tiles' patches are
 * transformed chunk by chunk of WINO_CC input channels, 16 channels to a vector
 * (the patch rows moved from X's planes into channel vectors by 16 x 16
 * transposes), the 36 products accumulate in a register tile of 6 tiles x nb
 * vectors per position (the conv kernels' tile shape, kernels/conv.c), each
 * chunk of U's rows read once for the unit's 18 tiles, and the output transform
 * turns the 36 sums back into 4x4 outputs, 16 channels at a time, transposed
 * into Y's planes with bias, residual and epilogue. The buffers: 220 KiB of
 * stack, which targets.h's conv_winograd says the target's threads have.
 *
 * t: Y, X, U, B (may be NULL), R (the residual, may be NULL); p: glow_abi_conv_wino
 * (kernel-abi.h).
 * U (passes/winograd.c): per block of 16 * nb output channels, U[xi][c][16 * nb]. */
#include "kernel.h"
#include "kernels/epilogue.h"
#include "kernels/nn-vec.h"
#include "qdot.h" /* glow_qdot_wide(): the register tile */

#define WINO_TB 6  /* tiles per unit: the register tile's rows */
#define WINO_CC 16 /* input channels per chunk of transformed patches */
#define WINO_G 3   /* groups of WINO_TB tiles per unit: U's rows are read once for 18 tiles */
#define WINO_V (36 * WINO_TB * WINO_CC) /* floats of one group's transformed patches */

typedef float wino_v4 __attribute__((vector_size(16), aligned(4)));
typedef float wino_v8 __attribute__((vector_size(32), aligned(4)));

typedef struct {
  float *y;
  const float *x, *u, *bias, *res;
  int64_t C, M, H, W, OH, OW, pt, pl, TW, ntiles;
  glow_epi e;
} wino_args;

/* The input patches of tiles [t0, t0 + n) (one row of tiles: t0's row) for
 * channels [c0, c0 + cn), cn <= 16: g[row][col] = X[c0 + lane][r0 + row][q0 + col]
 * as a vector over the 16 channels, zero outside X and past cn. */
static void wino_gather(const wino_args *a, const float *xn, int64_t t0, int64_t n, int64_t c0, int64_t cn,
                        glow_nn_v16 *g) {
  int64_t r0 = t0 / a->TW * 4 - a->pt, q0 = t0 % a->TW * 4 - a->pl, cols = 4 * n + 2, plane = a->H * a->W;
  for (int64_t i = 0; i < 6; i++) {
    int64_t row = r0 + i;
    for (int64_t j0 = 0; j0 < cols; j0 += 16) {
      glow_nn_v16 r[16];
      int64_t col = q0 + j0;
      int inrow = (uint64_t)row < (uint64_t)a->H;
      const float *s = xn + c0 * plane + row * a->W + col;
      if (inrow && col >= 0 && col + 16 <= a->W && cn == 16) {
        for (int k = 0; k < 16; k++)
          r[k] = *(const glow_nn_v16 *)(s + k * plane);
      } else { /* at X's border: the columns inside, [jlo, jhi) */
        int64_t jlo = col < 0 ? -col : 0, jhi = a->W - col < 16 ? a->W - col : 16;
        for (int k = 0; k < 16; k++) {
          r[k] = (glow_nn_v16){0};
          for (int64_t j = jlo; inrow && k < cn && j < jhi; j++)
            r[k][j] = s[k * plane + j];
        }
      }
      glow_nn_transpose16(r);
      for (int j = 0; j < 16 && j0 + j < cols; j++)
        g[i * 32 + j0 + j] = r[j];
    }
  }
}

/* v = B^T d for one column of 6 (stride s apart), in place. */
#define WINO_BT(d, s)                                                                                                  \
  do {                                                                                                                 \
    glow_nn_v16 d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s], d4 = d[4 * s], d5 = d[5 * s];                      \
    glow_nn_v16 a = d4 - 4.0f * d2, b = d3 - 4.0f * d1, c = d4 - d2, e = 2.0f * (d3 - d1);                             \
    d[0] = 4.0f * d0 - 5.0f * d2 + d4;                                                                                 \
    d[s] = a + b;                                                                                                      \
    d[2 * s] = a - b;                                                                                                  \
    d[3 * s] = c + e;                                                                                                  \
    d[4 * s] = c - e;                                                                                                  \
    d[5 * s] = 4.0f * d1 - 5.0f * d3 + d5;                                                                             \
  } while (0)

/* Transforms the patches of tiles [t0, t0 + n) of one row (tile t0 + k is unit
 * tile k0 + k) for channels [c0, c0 + cn) into v[xi][k][cl + lane]. */
static void wino_input(const wino_args *a, const float *xn, int64_t t0, int64_t n, int64_t k0, int64_t c0,
                       int64_t cn, int64_t cl, float *v) {
  glow_nn_v16 g[6 * 32];
  wino_gather(a, xn, t0, n, c0, cn, g);
  for (int64_t k = 0; k < n; k++) {
    glow_nn_v16 d[36];
    for (int i = 0; i < 6; i++)
      for (int j = 0; j < 6; j++)
        d[i * 6 + j] = g[i * 32 + 4 * k + j];
    for (int j = 0; j < 6; j++) /* B^T d: the columns */
      WINO_BT((d + j), 6);
    for (int i = 0; i < 6; i++) /* (B^T d) B: the rows */
      WINO_BT((d + i * 6), 1);
    for (int xi = 0; xi < 36; xi++)
      *(glow_nn_v16 *)(v + (xi * WINO_TB + k0 + k) * WINO_CC + cl) = d[xi];
  }
}

/* mx[k][0 .. 16 NB) += sum over c < cn of vx[k][c] * ux[c][0 .. 16 NB) for the 6
 * tiles k of one position xi (ux's rows rs floats apart); load: start from mx,
 * else from 0. */
#define WINO_GEMM(NB)                                                                                                  \
  static inline __attribute__((always_inline)) void wino_gemm_##NB(const float *vx, const float *ux, int64_t rs,       \
                                                                   int64_t cn, float *mx, int load) {                  \
    glow_nn_v16 acc[WINO_TB][NB];                                                                                      \
    for (int k = 0; k < WINO_TB; k++)                                                                                  \
      for (int q = 0; q < NB; q++)                                                                                     \
        acc[k][q] = load ? *(const glow_nn_v16 *)(mx + (k * NB + q) * 16) : (glow_nn_v16){0};                          \
    for (int64_t c = 0; c < cn; c++, ux += rs) {                                                                       \
      glow_nn_v16 wv[NB];                                                                                              \
      for (int q = 0; q < NB; q++)                                                                                     \
        wv[q] = *(const glow_nn_v16 *)(ux + q * 16);                                                                   \
      for (int k = 0; k < WINO_TB; k++) {                                                                              \
        float xv = vx[k * WINO_CC + c];                                                                                \
        for (int q = 0; q < NB; q++)                                                                                   \
          acc[k][q] += xv * wv[q];                                                                                     \
      }                                                                                                                \
    }                                                                                                                  \
    for (int k = 0; k < WINO_TB; k++)                                                                                  \
      for (int q = 0; q < NB; q++)                                                                                     \
        *(glow_nn_v16 *)(mx + (k * NB + q) * 16) = acc[k][q];                                                          \
  }

WINO_GEMM(1)
WINO_GEMM(2)
WINO_GEMM(4)

/* o = A^T m for one column of 6 (stride s apart) into 4 (stride so). */
#define WINO_AT(m, s, o, so)                                                                                           \
  do {                                                                                                                 \
    glow_nn_v16 a = m[s] + m[2 * s], b = m[s] - m[2 * s], c = m[3 * s] + m[4 * s], e = m[3 * s] - m[4 * s];            \
    o[0] = m[0] + a + c;                                                                                               \
    o[so] = b + 2.0f * e;                                                                                              \
    o[2 * so] = a + 4.0f * c;                                                                                          \
    o[3 * so] = b + 8.0f * e + m[5 * s];                                                                               \
  } while (0)

/* The 4x4 outputs of tile `tile` (unit tile k) for the 16 channels from m0:
 * m[xi][k][q * 16 ..] (q: which 16 of the block), written to Y with bias,
 * residual and epilogue; channels from mb on are not written. */
static void wino_output(const wino_args *a, float *yn, const float *rn, const float *m, int64_t nbk, int64_t k,
                        int64_t q, int64_t tile, int64_t m0, int64_t mb) {
  glow_nn_v16 s[36], t[24], o[16];
  for (int xi = 0; xi < 36; xi++)
    s[xi] = *(const glow_nn_v16 *)(m + ((xi * WINO_TB + k) * nbk + q) * 16);
  for (int j = 0; j < 6; j++) /* A^T s: the columns */
    WINO_AT((s + j), 6, (t + j), 6);
  glow_nn_v16 bias;
  glow_nn_load16_n(&bias, a->bias ? a->bias + m0 : 0, mb);
  for (int i = 0; i < 4; i++) { /* (A^T s) A: the rows */
    WINO_AT((t + i * 6), 1, (o + i * 4), 1);
    for (int j = 0; j < 4; j++)
      o[i * 4 + j] += bias;
  }
  glow_nn_transpose16(o); /* o[c]: channel m0 + c's 16 outputs, row-major 4x4 */
  int64_t oh0 = tile / a->TW * 4, ow0 = tile % a->TW * 4;
  int64_t rows = a->OH - oh0 < 4 ? a->OH - oh0 : 4, cols = a->OW - ow0 < 4 ? a->OW - ow0 : 4, osz = a->OH * a->OW;
  for (int64_t c = 0; c < mb && c < 16; c++) {
    int64_t off = (m0 + c) * osz + oh0 * a->OW + ow0;
    float *yc = yn + off;
    const float *rc = rn ? rn + off : 0;
    if (rows == 4 && cols == 4) { /* whole rows of 4 as vectors */
      glow_nn_v16 v = o[c];
      if (rc) {
        wino_v4 r0 = *(const wino_v4 *)rc, r1 = *(const wino_v4 *)(rc + a->OW), r2 = *(const wino_v4 *)(rc + 2 * a->OW),
                r3 = *(const wino_v4 *)(rc + 3 * a->OW);
        wino_v8 lo = __builtin_shufflevector(r0, r1, 0, 1, 2, 3, 4, 5, 6, 7),
                hi = __builtin_shufflevector(r2, r3, 0, 1, 2, 3, 4, 5, 6, 7);
        v += __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
      }
      glow_epi_v16(a->e, &v);
      *(wino_v4 *)yc = __builtin_shufflevector(v, v, 0, 1, 2, 3);
      *(wino_v4 *)(yc + a->OW) = __builtin_shufflevector(v, v, 4, 5, 6, 7);
      *(wino_v4 *)(yc + 2 * a->OW) = __builtin_shufflevector(v, v, 8, 9, 10, 11);
      *(wino_v4 *)(yc + 3 * a->OW) = __builtin_shufflevector(v, v, 12, 13, 14, 15);
      continue;
    }
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++) {
        float v = o[c][i * 4 + j] + (rc ? rc[i * a->OW + j] : 0.0f);
        yc[i * a->OW + j] = glow_epi_apply(a->e, v);
      }
  }
}

/* One unit: tiles [t0, t0 + tn) (tn at most WINO_G * WINO_TB; fewer at the end) of image n, in
 * groups of WINO_TB, x the block of 16 * NB output channels from m0 (its packed
 * weights: ub, rows 16 * nbk floats long). Each chunk of U's rows is read once
 * for all the groups' tiles. */
#define WINO_UNIT(NB)                                                                                                  \
  /* noinline and named glow_ks_: compiled once per bundle (codegen.c), not for every step */                       \
  __attribute__((noinline)) void glow_ks_wino_unit_##NB(const wino_args *a, int64_t n, int64_t t0, int64_t tn,       \
                                                        int64_t m0, const float *ub, int64_t nbk) {                    \
    float v[WINO_G * WINO_V] __attribute__((aligned(64)));                                                             \
    float m[WINO_G * 36 * WINO_TB * 16 * NB] __attribute__((aligned(64)));                                             \
    const float *xn = a->x + n * a->C * a->H * a->W;                                                                   \
    int64_t ntu = a->ntiles - t0 < tn ? a->ntiles - t0 : tn, ng = (ntu + WINO_TB - 1) / WINO_TB;                       \
    for (int64_t c0 = 0; c0 < a->C; c0 += WINO_CC) {                                                                   \
      int64_t cn = a->C - c0 < WINO_CC ? a->C - c0 : WINO_CC;                                                          \
      for (int64_t gi = 0; gi < ng; gi++) {                                                                            \
        float *vg = v + gi * WINO_V;                                                                                   \
        int64_t u0 = t0 + gi * WINO_TB, nt = ntu - gi * WINO_TB < WINO_TB ? ntu - gi * WINO_TB : WINO_TB;              \
        if (nt < WINO_TB) /* the missing tiles' sums are computed and dropped */                                       \
          for (int64_t i = 0; i < WINO_V; i++)                                                                         \
            vg[i] = 0.0f;                                                                                              \
        for (int64_t cl = 0; cl < cn; cl += 16)                                                                        \
          for (int64_t k = 0; k < nt;) { /* runs of tiles in one row of tiles */                                       \
            int64_t tile = u0 + k, run = a->TW - tile % a->TW;                                                         \
            run = run < nt - k ? run : nt - k;                                                                         \
            run = run < 7 ? run : 7; /* 4 * 7 + 2 = 30 columns: two vectors of 16 */                                   \
            wino_input(a, xn, tile, run, k, c0 + cl, cn - cl < 16 ? cn - cl : 16, cl, vg);                             \
            k += run;                                                                                                  \
          }                                                                                                            \
      }                                                                                                                \
      for (int xi = 0; xi < 36; xi++) {                                                                                \
        /* U's rows of position xi + 2 (of the next chunk past the last) on their way: a chunk's    \
         * 36 runs of rows lie C rows apart, each a page or less, which the hardware prefetchers    \
         * do not follow from one to the next; prefetcht1, as conv.c's tiles. */                      \
        int64_t pc = xi + 2 < 36 ? c0 : c0 + WINO_CC, px = xi + 2 < 36 ? xi + 2 : xi + 2 - 36;                        \
        const float *pu = ub + (px * a->C + pc) * 16 * nbk;                                                          \
        for (int64_t c = 0; c < WINO_CC && pc + c < a->C; c++)                                                         \
          for (int q = 0; q < NB; q++)                                                                                 \
            __builtin_prefetch(pu + c * 16 * nbk + q * 16, 0, 2);                                                      \
        for (int64_t gi = 0; gi < ng; gi++)                                                                            \
          wino_gemm_##NB(v + gi * WINO_V + xi * WINO_TB * WINO_CC, ub + (xi * a->C + c0) * 16 * nbk, 16 * nbk, cn,     \
                         m + (gi * 36 + xi) * WINO_TB * 16 * NB, c0 > 0);                                              \
      }                                                                                                                \
    }                                                                                                                  \
    float *yn = a->y + n * a->M * a->OH * a->OW;                                                                       \
    const float *rn = a->res ? a->res + n * a->M * a->OH * a->OW : 0;                                                 \
    for (int64_t k = 0; k < ntu; k++)                                                                                  \
      for (int64_t q = 0; q < NB; q++)                                                                                 \
        wino_output(a, yn, rn, m + k / WINO_TB * 36 * WINO_TB * 16 * NB, NB, k % WINO_TB, q, t0 + k, m0 + q * 16,      \
                    a->M - m0 - q * 16);                                                                               \
  }

WINO_UNIT(1)
WINO_UNIT(2)
WINO_UNIT(4)

GLOW_KERNEL_PART(conv_wino_f32) {
  wino_args a;
  a.y = (float *)t[0];
  a.x = (const float *)t[1];
  a.u = (const float *)t[2];
  a.bias = (const float *)t[3];
  a.res = (const float *)t[4];
  const glow_abi_conv_wino *cp = (const glow_abi_conv_wino *)p;
  int64_t N = cp->N, nb = cp->nb;
  a.C = cp->C, a.M = cp->M, a.H = cp->H, a.W = cp->W, a.OH = cp->OH, a.OW = cp->OW, a.pt = cp->pt, a.pl = cp->pl;
  a.e = glow_epi_get(&cp->epi);
  a.TW = (a.OW + 3) / 4;
  a.ntiles = (a.OH + 3) / 4 * a.TW;
  /* Registers for nb blocks of 16 at once, or one at a time. */
  int64_t tb = glow_qdot_wide() ? nb : 1, bw = 16 * tb, nmb = a.M / bw, span = WINO_G * WINO_TB,
          ngroups = (a.ntiles + span - 1) / span;
  /* A part's share: a range of the units' WINO_G rows of WINO_TB tiles each (a unit at
   * either end may be cut), not of whole units: a 64-channel conv on 14 x 14 is one unit,
   * which left one of two threads all of it. */
  int64_t units = N * ngroups * nmb, z0 = units * WINO_G * part / nparts, z1 = units * WINO_G * (part + 1) / nparts;
  for (int64_t u = z0 / WINO_G; u * WINO_G < z1; u++) {
    int64_t n = u / (ngroups * nmb), grp = u / nmb % ngroups, m0 = u % nmb * bw;
    int64_t r0 = z0 > u * WINO_G ? z0 - u * WINO_G : 0, r1 = z1 < (u + 1) * WINO_G ? z1 - u * WINO_G : WINO_G;
    int64_t t0 = grp * span + r0 * WINO_TB, tn = (r1 - r0) * WINO_TB;
    if (t0 >= a.ntiles)
      continue;
    /* Block m0 / (16 nb) of the packed panels, sub-block m0 % (16 nb) / 16 of it. */
    const float *ub = a.u + m0 / (16 * nb) * 16 * nb * 36 * a.C + m0 % (16 * nb);
    if (tb == 4)
      glow_ks_wino_unit_4(&a, n, t0, tn, m0, ub, nb);
    else if (tb == 2)
      glow_ks_wino_unit_2(&a, n, t0, tn, m0, ub, nb);
    else
      glow_ks_wino_unit_1(&a, n, t0, tn, m0, ub, nb);
  }
}

GLOW_KERNEL(conv_wino_f32) { glow_k_conv_wino_f32_part(t, p, 0, 1); }
