/* Helpers of the nn kernels (conv, matmul, pooling, normalization): sliding-window
 * index ranges and 16-float vectors (clang vector extensions: explicit vectors keep
 * every tile shape vectorized on every target). */
#ifndef GLOW_NN_VEC_H
#define GLOW_NN_VEC_H

#include <stdint.h>

/* Output rows per band of a plane kernel whose buffer holds cap elements, rs per
 * input row: as many as their input rows fit (span = (KH - 1) * dh + 1 for one
 * output row, stride sh between rows), at most out; 0 when one output row does not fit. */
static inline int64_t glow_nn_band_rows(int64_t cap, int64_t rs, int64_t span, int64_t sh, int64_t out) {
  if (cap / rs < span)
    return 0;
  int64_t band = (cap / rs - span) / sh + 1;
  return band < out ? band : out;
}

/* Sliding windows: the indices i in [0, n) with 0 <= i*s + off < lim are [*lo, *hi). */
static inline void glow_nn_range(int64_t off, int64_t s, int64_t lim, int64_t n, int64_t *lo, int64_t *hi) {
  int64_t l = off >= 0 ? 0 : (-off + s - 1) / s;
  int64_t h = lim - 1 - off < 0 ? 0 : (lim - 1 - off) / s + 1;
  h = h < n ? h : n;
  *lo = l < h ? l : h;
  *hi = h;
}

/* Floats in one stack panel of the conv and matmul kernels: 64 KiB by default;
 * targets with small stacks (Cortex-M) set less in their GLOWC_TARGET_CFLAGS, and
 * kernels whose shapes need a larger panel fall back to the generic loops. */
#ifndef GLOW_STACK_PANEL_FLOATS
#define GLOW_STACK_PANEL_FLOATS 16384
#endif

/* 16 floats as one vector (LLVM splits it where vectors are narrower). */
typedef float glow_nn_v16 __attribute__((vector_size(64), aligned(4)));

/* The even (odd) lanes of the 32 floats lo, hi: a stride-2 row's one phase, 16 at a time.
 * Macros: vectors passed by value change the ABI where the target lacks them (-Wpsabi). */
#define GLOW_NN_EVEN16(lo, hi) __builtin_shufflevector(lo, hi, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30)
#define GLOW_NN_ODD16(lo, hi) __builtin_shufflevector(lo, hi, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31)
/* 16 floats at stride s (1 or 2) from p (stride 2 reads 32). */
#define GLOW_NN_LOAD16_S(p, s)                                                                                         \
  ((s) == 2 ? GLOW_NN_EVEN16(*(const glow_nn_v16 *)(p), *(const glow_nn_v16 *)((p) + 16)) : *(const glow_nn_v16 *)(p))

/* *v = p's first n floats (0 past them; none where p is NULL): one vector load where
 * n >= 16, else lane by lane (a bias block: 16 compares and branches a tile cost as much
 * as a 1000-channel conv's taps' share of it). A pointer, not a returned vector (-Wpsabi). */
static inline __attribute__((always_inline)) void glow_nn_load16_n(glow_nn_v16 *v, const float *p, int64_t n) {
  *v = (glow_nn_v16){0};
  if (p && n >= 16)
    *v = *(const glow_nn_v16 *)p;
  else
    for (int64_t j = 0; p && j < n; j++)
      (*v)[j] = p[j];
}

/* Transposes the 16 x 16 block r[row][column] in place: four rounds, round k
 * pairing rows that differ in bit k and swapping bit k of row and column. */
static inline void glow_nn_transpose16(glow_nn_v16 *r) {
  for (int i = 0; i < 16; i += 2) {
    glow_nn_v16 a = r[i], b = r[i + 1];
    r[i] = __builtin_shufflevector(a, b, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
    r[i + 1] = __builtin_shufflevector(a, b, 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31);
  }
  for (int q = 0; q < 16; q += 4)
    for (int i = q; i < q + 2; i++) {
      glow_nn_v16 a = r[i], b = r[i + 2];
      r[i] = __builtin_shufflevector(a, b, 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29);
      r[i + 2] = __builtin_shufflevector(a, b, 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
    }
  for (int q = 0; q < 16; q += 8)
    for (int i = q; i < q + 4; i++) {
      glow_nn_v16 a = r[i], b = r[i + 4];
      r[i] = __builtin_shufflevector(a, b, 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
      r[i + 4] = __builtin_shufflevector(a, b, 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
    }
  for (int i = 0; i < 8; i++) {
    glow_nn_v16 a = r[i], b = r[i + 8];
    r[i] = __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
    r[i + 8] = __builtin_shufflevector(a, b, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31);
  }
}

/* Moves n <= 16 pixels x 16 channels between a strip (pixel-major, rows cw
 * apart) and Y (channel rows osz apart), either way; channels past mb are
 * left alone in Y. */
static inline __attribute__((always_inline)) void glow_nn_strip_move(float *st, int64_t cw, float *y, int64_t osz,
                                                                     int64_t n, int64_t mb, int to_y) {
  glow_nn_v16 r[16];
  for (int i = 0; i < 16; i++)
    if (to_y && n == 16)
      r[i] = *(const glow_nn_v16 *)(st + i * cw);
    else if (!to_y && n == 16)
      r[i] = i < mb ? *(const glow_nn_v16 *)(y + i * osz) : (glow_nn_v16){0};
    else
      for (int j = 0; j < 16; j++)
        r[i][j] = to_y ? (i < n ? st[i * cw + j] : 0.0f) : (i < mb && j < n ? y[i * osz + j] : 0.0f);
  glow_nn_transpose16(r);
  for (int i = 0; i < 16; i++)
    if (to_y && i < mb && n == 16)
      *(glow_nn_v16 *)(y + i * osz) = r[i];
    else if (to_y && i < mb)
      for (int j = 0; j < n; j++)
        y[i * osz + j] = r[i][j];
    else if (!to_y && i < n)
      *(glow_nn_v16 *)(st + i * cw) = r[i];
}

/* Packs a 16-column panel: dst[k][j] = src[j * ld + k] for k < n, j < rows
 * (zero for j >= rows): 16 x 16 blocks transposed in registers. */
static inline void glow_nn_pack_t16(float *dst, const float *src, int64_t ld, int64_t rows, int64_t n) {
  int64_t k = 0;
  for (; k + 16 <= n; k += 16) {
    glow_nn_v16 r[16];
    for (int j = 0; j < 16; j++)
      r[j] = j < rows ? *(const glow_nn_v16 *)(src + j * ld + k) : (glow_nn_v16){0};
    glow_nn_transpose16(r);
    for (int i = 0; i < 16; i++)
      *(glow_nn_v16 *)(dst + (k + i) * 16) = r[i];
  }
  for (; k < n; k++)
    for (int j = 0; j < 16; j++)
      dst[k * 16 + j] = j < rows ? src[j * ld + k] : 0.0f;
}

#endif
