/* Shared by the nn ops: sliding-window geometry (Conv, ConvTranspose, pools)
 * and the matrix-product kernels' parameters (Gemm, MatMul, 1x1 Conv). */
#ifndef GLOW_NN_UTIL_H
#define GLOW_NN_UTIL_H

#include "ops/op-util.h"

/* Spatial axes of an N x C x D1 x ... tensor (at most 3). Kernels get them
 * right-aligned into 3 axes (D, H, W) with 1s in front, so the last spatial
 * axis is always the innermost loop. */
typedef struct glow_nn_win {
  int nsp;
  int64_t in[3], out[3], k[3], s[3], d[3], pb[3], pe[3];
} glow_nn_win;

/* nn-window.c */
/* Reads kernel_shape (checked against `kernel` when that is not NULL; required
 * when it is), strides, dilations, pads and auto_pad for a window sliding over
 * x's spatial axes, and computes the output extents (floor, or ceil when
 * ceil_mode). Returns 0, or -1 after glow_node_error(). */
int glow_nn_win_get(const glow_graph *g, const glow_node *n, const glow_value *x, const int64_t *kernel, int ceil_mode,
                    glow_nn_win *w);
/* The same for ConvTranspose: `in` is X's spatial extents, `out` Y's (from
 * output_shape, output_padding and pads or auto_pad). */
int glow_nn_win_get_transposed(const glow_graph *g, const glow_node *n, const glow_value *x, const int64_t *kernel,
                               glow_nn_win *w);
/* The kernels' window (kernel-abi.h): w right-aligned to 3 axes. */
glow_abi_win glow_nn_win_abi(const glow_nn_win *w);
/* ops/nn-conv.c: a float32 Conv's parameters as the conv kernels read them (panel_blocks:
 * its weights' glow.w_panel, passes/pack-conv-weights.c; 0 where not packed); -1 for any
 * other node (errors reported). */
int glow_conv_f32_abi(const glow_graph *g, const glow_node *n, glow_abi_conv *a);
/* ops/nn-pool.c: the window of a local (not global) pool, as the kernels read it; -1 where
 * the node is not one or is wrong (reported). */
int glow_nn_pool_win(const glow_graph *g, const glow_node *n, glow_abi_win *a);
/* ops/nn-conv.c: the epilogue that passes/fuse-epilogue.c fused into a float32 conv
 * (glow.epi, glow.epi_a, glow.epi_b), as the kernels read it. */
glow_abi_epi glow_nn_conv_epi(const glow_node *n);
/* The shape of a pool's output: x's N and C, then w's output extents (x->rank values). */
void glow_nn_win_out_dims(const glow_value *x, const glow_nn_win *w, int64_t *dims);
/* Row-major offset of spatial position pos[nsp] in an extent ext[nsp]. */
int64_t glow_nn_win_offset(int nsp, const int64_t *ext, const int64_t *pos);
/* Advances a spatial multi-index over ext; returns 0 after wrapping around. */
int glow_nn_win_next(int nsp, const int64_t *ext, int64_t *pos);

/* nn-gemm.c: Y[b][m][n] = alpha * sum_k A[b][m][k] * B[b][k][n] + beta * C[b][m][n]
 * over up to 4 batch axes, every operand but Y (dense) through strides. */
#define GLOW_NN_MM_BATCH 4
typedef struct glow_nn_mm {
  int64_t bd[GLOW_NN_MM_BATCH];                                                /* batch extents */
  int64_t abs[GLOW_NN_MM_BATCH], bbs[GLOW_NN_MM_BATCH], cbs[GLOW_NN_MM_BATCH]; /* batch strides */
  int64_t M, N, K, ams, aks, bks, bns;
  double alpha, beta;
  int64_t cms, cns; /* 0 where C broadcasts */
} glow_nn_mm;
/* No batch, alpha 1, every stride 0. */
void glow_nn_mm_init(glow_nn_mm *q);
/* The call of glow_k_matmul_<dt> on value ids y, a, b and c (-1: no C). */
void glow_nn_mm_lower(const glow_nn_mm *q, glow_dtype dt, int y, int a, int b, int c, glow_kcall *kc);

#endif
