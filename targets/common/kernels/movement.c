/* Data movement kernels, one per element size (e1, e2, e4, e8): they copy
 * elements without looking at them, so every dtype of a size shares them.
 * Transpose, Slice, Expand, Tile, DepthToSpace and SpaceToDepth are strided
 * copies; Pad, nearest Resize and Compress read through per-axis tables. */
#include "kernel.h"

/* t: out, in; p: glow_abi_copy_strided.
 * Dense output: out[idx] = in[in_offset + sum(idx[d] * in_strides[d])]. */
#define COPY_STRIDED(S, T)                                                                                             \
  GLOW_KERNEL(copy_strided_e##S) {                                                                                     \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_copy_strided *ap = (const glow_abi_copy_strided *)p;                                                \
    int64_t r = ap->r, base = ap->in_offset;                                                                           \
    const int64_t *dims = ap->dims, *st = GLOW_ABI_COPY_STRIDED_STRIDES(ap);                                           \
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

/* t: out, in, fill (NULL: the fill element is fill_bits); p: glow_abi_copy_table.
 * Dense output: out[idx] = in[sum(tab[d][idx[d]])], or fill if any entry is -1. */
#define COPY_TABLE(S, T)                                                                                               \
  GLOW_KERNEL(copy_table_e##S) {                                                                                       \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_copy_table *ap = (const glow_abi_copy_table *)p;                                                    \
    T fill = t[2] ? *(const T *)t[2] : (T)(uint64_t)ap->fill_bits;                                                     \
    int64_t r = ap->r, outer = 1, idx[16] = {0};                                                                       \
    const int64_t *dims = ap->dims, *q = GLOW_ABI_COPY_TABLE_TABLES(ap), *tab[16];                                     \
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

/* t: out; p: glow_abi_fill */
#define FILL(S, T)                                                                                                     \
  GLOW_KERNEL(fill_e##S) {                                                                                             \
    T *o = (T *)t[0];                                                                                                  \
    const glow_abi_fill *ap = (const glow_abi_fill *)p;                                                                \
    T v = (T)(uint64_t)ap->bits;                                                                                       \
    for (int64_t i = 0; i < ap->n; i++)                                                                                \
      o[i] = v;                                                                                                        \
  }

/* t: out, in[0..k-1] (k <= 63); p: glow_abi_concat.
 * Output row a is input 0's row a, then input 1's row a, ... */
#define CONCAT(S, T)                                                                                                   \
  GLOW_KERNEL(concat_e##S) {                                                                                           \
    T *o = (T *)t[0];                                                                                                  \
    const glow_abi_concat *ap = (const glow_abi_concat *)p;                                                            \
    int64_t k = ap->k, outer = ap->outer, row = 0, at = 0;                                                             \
    const int64_t *len = ap->len;                                                                                      \
    for (int64_t j = 0; j < k; j++)                                                                                    \
      row += len[j];                                                                                                   \
    for (int64_t j = 0; j < k; at += len[j], j++) {                                                                    \
      const T *x = (const T *)t[1 + j];                                                                                \
      for (int64_t a = 0; a < outer; a++)                                                                              \
        for (int64_t e = 0; e < len[j]; e++)                                                                           \
          o[a * row + at + e] = x[a * len[j] + e];                                                                     \
    }                                                                                                                  \
  }

/* t: out[0..k-1] (k <= 63; NULL for an unused output), in; p: glow_abi_concat: the inverse of concat. */
#define SPLIT(S, T)                                                                                                    \
  GLOW_KERNEL(split_e##S) {                                                                                            \
    const glow_abi_concat *ap = (const glow_abi_concat *)p;                                                            \
    int64_t k = ap->k, outer = ap->outer, row = 0, at = 0;                                                             \
    const int64_t *len = ap->len;                                                                                      \
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
