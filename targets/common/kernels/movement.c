/* Data movement kernels, one per element size (e1, e2, e4, e8): they copy
 * elements without looking at them, so every dtype of a size shares them.
 * Transpose, Slice, Expand, Tile, DepthToSpace and SpaceToDepth are strided
 * copies; Pad, nearest Resize and Compress read through per-axis tables. */
#include "kernel.h"

/* t: out, in; p: rank (1..16), in_offset, dims[rank], in_strides[rank] (elements; 0 or negative allowed).
 * Dense output: out[idx] = in[in_offset + sum(idx[d] * in_strides[d])]. */
#define COPY_STRIDED(S, T)                                                                                             \
  GLOW_KERNEL(copy_strided_e##S) {                                                                                     \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    int64_t r = p[0], base = p[1];                                                                                     \
    const int64_t *dims = p + 2, *st = p + 2 + r;                                                                      \
    int64_t n = dims[r - 1], s = st[r - 1], outer = 1, idx[16] = {0}, off = base;                                      \
    for (int64_t d = 0; d < r - 1; d++)                                                                                \
      outer *= dims[d];                                                                                                \
    for (int64_t i = 0; i < outer; i++, o += n) {                                                                      \
      for (int64_t k = 0; k < n; k++)                                                                                  \
        o[k] = x[off + k * s];                                                                                         \
      for (int64_t d = r - 2; d >= 0; d--) {                                                                           \
        off += st[d];                                                                                                  \
        if (++idx[d] < dims[d])                                                                                        \
          break;                                                                                                       \
        off -= st[d] * dims[d];                                                                                        \
        idx[d] = 0;                                                                                                    \
      }                                                                                                                \
    }                                                                                                                  \
  }

/* t: out, in, fill (NULL: the fill element is p[1]); p: rank (1..16), fill_bits, dims[rank], then for each
 * axis d, dims[d] input offsets (elements; -1 gives the fill element).
 * Dense output: out[idx] = in[sum(tab[d][idx[d]])], or fill if any entry is -1. */
#define COPY_TABLE(S, T)                                                                                               \
  GLOW_KERNEL(copy_table_e##S) {                                                                                       \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    T fill = t[2] ? *(const T *)t[2] : (T)(uint64_t)p[1];                                                              \
    int64_t r = p[0], outer = 1, idx[16] = {0};                                                                        \
    const int64_t *dims = p + 2, *q = p + 2 + r, *tab[16];                                                             \
    for (int64_t d = 0; d < r; d++) {                                                                                  \
      tab[d] = q;                                                                                                      \
      q += dims[d];                                                                                                    \
      if (d < r - 1)                                                                                                   \
        outer *= dims[d];                                                                                              \
    }                                                                                                                  \
    int64_t n = dims[r - 1];                                                                                           \
    const int64_t *last = tab[r - 1];                                                                                  \
    for (int64_t i = 0; i < outer; i++, o += n) {                                                                      \
      int64_t off = 0, hole = 0;                                                                                       \
      for (int64_t d = 0; d < r - 1; d++) {                                                                            \
        hole |= tab[d][idx[d]] < 0;                                                                                    \
        off += tab[d][idx[d]];                                                                                         \
      }                                                                                                                \
      for (int64_t k = 0; k < n; k++)                                                                                  \
        o[k] = hole || last[k] < 0 ? fill : x[off + last[k]];                                                          \
      for (int64_t d = r - 2; d >= 0 && ++idx[d] == dims[d]; d--)                                                      \
        idx[d] = 0;                                                                                                    \
    }                                                                                                                  \
  }

/* t: out; p: n, bits (the element's raw bits) */
#define FILL(S, T)                                                                                                     \
  GLOW_KERNEL(fill_e##S) {                                                                                             \
    T *o = (T *)t[0];                                                                                                  \
    T v = (T)(uint64_t)p[1];                                                                                           \
    for (int64_t i = 0; i < p[0]; i++)                                                                                 \
      o[i] = v;                                                                                                        \
  }

/* t: out, in[0..k-1] (k <= 63); p: k, outer, len[k] (elements each input adds to an output row).
 * Output row a is input 0's row a, then input 1's row a, ... */
#define CONCAT(S, T)                                                                                                   \
  GLOW_KERNEL(concat_e##S) {                                                                                           \
    T *o = (T *)t[0];                                                                                                  \
    int64_t k = p[0], outer = p[1], row = 0, at = 0;                                                                   \
    const int64_t *len = p + 2;                                                                                        \
    for (int64_t j = 0; j < k; j++)                                                                                    \
      row += len[j];                                                                                                   \
    for (int64_t j = 0; j < k; at += len[j], j++) {                                                                    \
      const T *x = (const T *)t[1 + j];                                                                                \
      for (int64_t a = 0; a < outer; a++)                                                                              \
        for (int64_t e = 0; e < len[j]; e++)                                                                           \
          o[a * row + at + e] = x[a * len[j] + e];                                                                     \
    }                                                                                                                  \
  }

/* t: out[0..k-1] (k <= 63; NULL for an unused output), in; p: k, outer, len[k]: the inverse of concat. */
#define SPLIT(S, T)                                                                                                    \
  GLOW_KERNEL(split_e##S) {                                                                                            \
    int64_t k = p[0], outer = p[1], row = 0, at = 0;                                                                   \
    const int64_t *len = p + 2;                                                                                        \
    const T *x = (const T *)t[k];                                                                                      \
    for (int64_t j = 0; j < k; j++)                                                                                    \
      row += len[j];                                                                                                   \
    for (int64_t j = 0; j < k; at += len[j], j++) {                                                                    \
      T *o = (T *)t[j];                                                                                                \
      for (int64_t a = 0; o && a < outer; a++)                                                                         \
        for (int64_t e = 0; e < len[j]; e++)                                                                           \
          o[a * len[j] + e] = x[a * row + at + e];                                                                     \
    }                                                                                                                  \
  }

#define MOVEMENT(S, T) COPY_STRIDED(S, T) COPY_TABLE(S, T) FILL(S, T) CONCAT(S, T) SPLIT(S, T)
MOVEMENT(1, uint8_t)
MOVEMENT(2, uint16_t)
MOVEMENT(4, uint32_t)
MOVEMENT(8, uint64_t)
