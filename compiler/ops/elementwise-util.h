/* Helpers shared by the elementwise ops (compiler/ops/elementwise-*.c). */
#ifndef GLOW_ELEMENTWISE_UTIL_H
#define GLOW_ELEMENTWISE_UTIL_H

#include "ops/op-util.h"

/* Inputs a kernel call can carry besides the output. */
#define GLOW_EW_MAX_IN ((int)(sizeof((glow_kcall *)0)->tensors / sizeof(int)) - 1)

/* Dtype sets, as bit masks over glow_dtype. */
#define GLOW_EW_BIT(dt) (1u << (dt))
#define GLOW_EW_FLOATS (GLOW_EW_BIT(GLOW_DT_F32) | GLOW_EW_BIT(GLOW_DT_F64) | GLOW_EW_BIT(GLOW_DT_F16) | GLOW_EW_BIT(GLOW_DT_BF16))
#define GLOW_EW_SINTS (GLOW_EW_BIT(GLOW_DT_I8) | GLOW_EW_BIT(GLOW_DT_I16) | GLOW_EW_BIT(GLOW_DT_I32) | GLOW_EW_BIT(GLOW_DT_I64))
#define GLOW_EW_UINTS (GLOW_EW_BIT(GLOW_DT_U8) | GLOW_EW_BIT(GLOW_DT_U16) | GLOW_EW_BIT(GLOW_DT_U32) | GLOW_EW_BIT(GLOW_DT_U64))
#define GLOW_EW_NUMERIC (GLOW_EW_FLOATS | GLOW_EW_SINTS | GLOW_EW_UINTS)
#define GLOW_EW_BOOL GLOW_EW_BIT(GLOW_DT_BOOL)

/* How reference code computes on a dtype: in double, int64 or uint64. */
typedef enum { GLOW_EW_DOM_FLOAT, GLOW_EW_DOM_SIGNED, GLOW_EW_DOM_UNSIGNED } glow_ew_domain;

/* Walks a dense output in row-major order with the element offsets of
 * inputs broadcast to it (reference code). */
typedef struct glow_ew_iter {
  int rank, nin;
  int64_t dims[GLOW_MAX_RANK], idx[GLOW_MAX_RANK];
  int64_t strides[GLOW_EW_MAX_IN][GLOW_MAX_RANK];
  int64_t off[GLOW_EW_MAX_IN]; /* input k's element for the current output element */
} glow_ew_iter;

/* ops/elementwise-util.c */
glow_ew_domain glow_ew_domain_of(glow_dtype dt);
/* Refuses input i unless its dtype is in `mask`; returns 0 or -1. */
int glow_ew_check_type(const glow_graph *g, const glow_node *n, int i, unsigned mask);
/* Refuses inputs whose dtypes differ from input 0's; returns 0 or -1. */
int glow_ew_check_same_types(const glow_graph *g, const glow_node *n);
/* Opset < 7 broadcasting (attributes broadcast, axis): accepts what equals numpy's; returns 0 or -1. */
int glow_ew_check_legacy_broadcast(const glow_graph *g, const glow_node *n);
/* Output 0 gets dtype dt and the numpy broadcast of every input's shape; returns 0 or -1. */
int glow_ew_infer_broadcast(glow_graph *g, glow_node *n, glow_dtype dt);
/* Iterator over output 0 of n, with inputs first .. first + count - 1. */
void glow_ew_iter_init(glow_ew_iter *it, const glow_graph *g, const glow_node *n, int first, int count);
void glow_ew_iter_next(glow_ew_iter *it);
/* Adds the tensors (output 0, then inputs first .. first + count - 1) and the
 * broadcast parameters of kernels/elementwise.h's GLOW_EW_ROWS: r, dims[r],
 * strides[count][r], with size-1 axes dropped and axes merged where every
 * input allows, so the innermost stride is 0 or 1. */
int glow_ew_lower_bcast(const glow_graph *g, const glow_node *n, glow_kcall *kc, int first, int count);
/* The same for inputs in[0 .. count - 1], in that order (QLinearAdd's A and B). */
int glow_ew_lower_bcast_ins(const glow_graph *g, const glow_node *n, glow_kcall *kc, const int *in, int count);

#endif
