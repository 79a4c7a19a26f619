/* Helpers shared by the data movement and shape ops (compiler/ops/tensor-*.c). */
#ifndef GLOW_TENSOR_UTIL_H
#define GLOW_TENSOR_UTIL_H

#include "ops/op-util.h"

/* Most tensors and kernel parameter tables stay far below this; a copy view may reach twice the rank (Tile). */
#define GLOW_T_MAX_VIEW (2 * GLOW_MAX_RANK)

/* ops/tensor-util.c */
/* Like glow_need_const_ints() but for any numeric dtype (float scales, bool conditions), read as doubles. */
int glow_t_need_const_nums(const glow_graph *g, const glow_node *n, int idx, const char *what, double *v, int cap);
/* Refuses dtypes a byte-moving kernel cannot carry (strings, unknown); returns 0 or -1. */
int glow_t_check_movable(const glow_graph *g, const glow_node *n, const glow_value *v);
/* Kernel name for a data movement kernel: "glow_k_<base>_e<element size>". */
void glow_t_kcall_by_size(glow_kcall *kc, const char *base, glow_dtype dt);
/* Lowers to copy_strided: the dense output (dims[rank]) reads input 0 at offset + sum(idx[d] * strides[d]).
 * Size-1 axes are dropped and contiguous runs merged, so plain copies become one loop. */
int glow_t_lower_strided(const glow_graph *g, const glow_node *n, glow_kcall *kc, int rank, const int64_t *dims,
                         const int64_t *strides, int64_t offset);
/* Lowers to copy_table: the dense output reads input 0 at the sum over axes of tab[d][idx[d]] (element offsets);
 * an entry of -1 gives the fill element instead: fill_input's first element when fill_input >= 0, else fill_bits
 * (the raw bits of one element). tab[d] holds out->dims[d] entries. */
int glow_t_lower_table(const glow_graph *g, const glow_node *n, glow_kcall *kc, int64_t *const *tab, int fill_input,
                       uint64_t fill_bits);
/* Raw bits of one element of dtype dt at p, as the unsigned integer of its size (fill values travel so). */
uint64_t glow_t_raw_bits(glow_dtype dt, const void *p);
/* Raw bits of `v` converted to dtype dt. */
uint64_t glow_t_bits_of(glow_dtype dt, double v);
/* Row-major coordinates of flat index i. */
void glow_t_unravel(int64_t i, int rank, const int64_t *dims, int64_t *coord);
/* Element copy for reference code: dst[di] = src[si], elements of dt. */
void glow_t_copy_elem(glow_dtype dt, void *dst, int64_t di, const void *src, int64_t si);

#endif
