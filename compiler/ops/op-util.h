/* Helpers shared by op definitions: shape inference and parameter packing. */
#ifndef GLOW_OP_UTIL_H
#define GLOW_OP_UTIL_H

#include "glowc.h"

/* Input/output value of a node (NULL for an omitted optional one). */
static inline const glow_value *glow_in(const glow_graph *g, const glow_node *n, int i) {
  return i < n->nin && n->in[i] >= 0 ? &g->vals[n->in[i]] : NULL;
}
static inline glow_value *glow_out(const glow_graph *g, const glow_node *n, int i) {
  return i < n->nout && n->out[i] >= 0 ? &g->vals[n->out[i]] : NULL;
}

/* Appends the first `bytes` of a kernel's parameter struct (kernel-abi.h): all of it, or
 * the prefix its kernel reads. */
static inline void glow_kcall_abi(glow_kcall *kc, const void *abi, size_t bytes) {
  GLOW_ASSERT(bytes % sizeof(int64_t) == 0);
  glow_kcall_params(kc, (int)(bytes / sizeof(int64_t)), (const int64_t *)abi);
}

/* ops/op-util.c */
/* Output takes input 0's dtype and shape. */
int glow_infer_same_as_input(glow_graph *g, glow_node *n);
/* Numpy broadcast of all inputs' shapes into out_dims; returns rank or -1 after an error. */
int glow_broadcast_shape(const glow_graph *g, const glow_node *n, int64_t *out_dims);
/* Strides of `v` broadcast to an output of rank r and dims: 0 on broadcast axes. */
void glow_broadcast_strides(const glow_value *v, int r, const int64_t *dims, int64_t *strides);
/* Dense row-major strides. */
void glow_dense_strides(int rank, const int64_t *dims, int64_t *strides);
/* The product of v's dims from axis `from` up to (not including) `to`. */
int64_t glow_extent(const glow_value *v, int from, int to);
/* Normalizes a possibly negative axis against rank; -1 after an error. */
int glow_norm_axis(const glow_graph *g, const glow_node *n, int64_t axis, int rank);
/* Reads constant integer input `idx` (a shape, axes, pads, ...) into v[cap]; returns the count.
 * If the input is not a compile-time constant, reports the standard error (which names
 * the value and how to bind it with -bind-input) and returns -1. `what` names its role. */
int glow_need_const_ints(const glow_graph *g, const glow_node *n, int idx, const char *what, int64_t *v, int cap);
/* A scalar int32 or int64 input that must be a compile-time constant in [lo, hi] (a size, a step) into *v.
 * Returns 0, or -1 after an error that names `what`. */
int glow_need_const_int_scalar(const glow_graph *g, const glow_node *n, int idx, const char *what, int64_t lo,
                               int64_t hi, int64_t *v);
/* Lowering for ops that are a plain byte copy of input 0 (Identity, Reshape, ...). */
int glow_lower_copy(const glow_graph *g, const glow_node *n, glow_kcall *kc);
/* Reference for a plain byte copy of input 0. */
int glow_eval_copy(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins);

#endif
