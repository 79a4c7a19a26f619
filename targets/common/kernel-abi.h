/* The contract between the compiler and the kernels: the numbers both sides
 * read, and one parameter struct per kernel family. The lowering code in
 * compiler/ops/ fills a struct and appends it to the kernel call's parameters
 * (glow_kcall_abi(), ops/op-util.h); the kernel reads the same struct over its
 * `const int64_t *p` (kernel.h):
 *
 *   glow_abi_pool a = {.nc = N * C, .w = ...};      // compiler/ops/nn-pool.c
 *   glow_kcall_abi(kc, &a, sizeof a);
 *
 *   GLOW_KERNEL(maxpool_f32) {                       // targets/common/kernels/pool.c
 *     const glow_abi_pool *a = (const glow_abi_pool *)p;
 *     ... a->w.k[2] ...
 *   }
 *
 * Every field is an int64_t, so a struct is an array of them: the parameters
 * stay one constant array, which the bundle's code folds into the kernel.
 * Floating-point fields hold the bits of a double (glow_pf(), glow_f2p()). A
 * kernel may be given a prefix of its struct when it reads no further (the
 * `_Static_assert`s pin the offsets such prefixes end at).
 *
 * Freestanding: included by the host compiler and by kernels built for every
 * target (no libc). */
#ifndef GLOW_KERNEL_ABI_H
#define GLOW_KERNEL_ABI_H

#include <stddef.h>
#include <stdint.h>

#define GLOW_ABI_PARAMS(type) (sizeof(type) / sizeof(int64_t))

/* ---- The fused epilogue (kernels/epilogue.h, compiler/passes/fuse-epilogue.c) ---- */

/* Kinds, the glow.epi attribute of a fused conv or matmul. */
enum {
  GLOW_EPI_NONE = 0,
  GLOW_EPI_RELU = 1,
  GLOW_EPI_CLIP = 2,       /* a: min, b: max (either may be -inf / +inf) */
  GLOW_EPI_SIGMOID = 3,
  GLOW_EPI_SWISH = 4,      /* x * sigmoid(x): Mul(x, Sigmoid(x)) */
  GLOW_EPI_HARDSWISH = 5,
  GLOW_EPI_LEAKY_RELU = 6, /* a: alpha */
  GLOW_EPI_HARDSIGMOID = 7 /* a: alpha, b: beta */
};

/* kind, and a and b: floats as double bits. */
typedef struct glow_abi_epi {
  int64_t kind, a, b;
} glow_abi_epi;
_Static_assert(sizeof(glow_abi_epi) == 3 * sizeof(int64_t), "glow_abi_epi: 3 params");

/* ---- Quantized kernels ---- */

/* Signedness flags of a quantized kernel's operands (glow_q_sign_flags()). */
#define GLOW_Q_X_SIGNED 1
#define GLOW_Q_W_SIGNED 2
#define GLOW_Q_Y_SIGNED 4

/* Packed int8 matmul weights (compiler/passes/pack-weights.c) hold whole tiles of
 * this many blocks of 16 columns: the qlinearmatmul kernel's tiles read them whole. */
#define GLOW_QMM_TILE_BLOCKS 4

/* ---- Sliding windows: pooling and convolutions ---- */

/* Window geometry over up to 3 spatial axes, right-aligned (a 2-D window has
 * in[0] = out[0] = k[0] = s[0] = d[0] = 1 and no padding on axis 0):
 * in: X's extents, out: Y's, k: kernel, s: strides, d: dilations, pb and pe:
 * padding at the beginning and the end. */
typedef struct glow_abi_win {
  int64_t in[3], out[3], k[3], s[3], d[3], pb[3], pe[3];
} glow_abi_win;
_Static_assert(sizeof(glow_abi_win) == 21 * sizeof(int64_t), "glow_abi_win: 7 x 3 params");

/* Pooling over nc planes (kernels/pool.c). attr: AveragePool's count_include_pad,
 * LpPool's p, MaxPool's storage_order (with indices); sign: QLinearAveragePool's
 * int8 flag. MaxPool without indices reads up to w. */
typedef struct glow_abi_pool {
  int64_t nc;
  glow_abi_win w;
  int64_t attr, sign;
} glow_abi_pool;
_Static_assert(offsetof(glow_abi_pool, attr) == 22 * sizeof(int64_t), "glow_abi_pool: attr after the window");
_Static_assert(sizeof(glow_abi_pool) == 24 * sizeof(int64_t), "glow_abi_pool: 24 params");

/* ---- Matrix products ---- */

/* Batched, strided Y[b][m][n] = alpha * sum_k A[b][m][k] * B[b][k][n] + beta * C[b][m][n]
 * (kernels/gemm.c, qgemm.c) over up to 4 batch axes: bd, the batch extents; abs,
 * bbs, cbs, A's, B's and C's batch strides; A's m and k strides, B's k and n
 * strides, C's m and n strides (0 where C broadcasts); Y is dense. The integer
 * kernels read za_row and zb_col (a zero point per row of A, per column of B)
 * in place of alpha and beta. */
typedef struct glow_abi_mm {
  int64_t bd[4], abs[4], bbs[4], cbs[4];
  int64_t M, N, K, ams, aks, bks, bns;
  union {
    struct {
      int64_t alpha, beta; /* doubles' bits */
    };
    struct {
      int64_t za_row, zb_col;
    };
  };
  int64_t cms, cns;
} glow_abi_mm;
_Static_assert(sizeof(glow_abi_mm) == 27 * sizeof(int64_t), "glow_abi_mm: 27 params");

/* matmul_f32 also takes the fused epilogue; other dtypes read up to it. */
typedef struct glow_abi_matmul {
  glow_abi_mm mm;
  glow_abi_epi epi;
} glow_abi_matmul;
_Static_assert(sizeof(glow_abi_matmul) == 30 * sizeof(int64_t), "glow_abi_matmul: 30 params");

/* QLinearMatMul (kernels/qgemm.c): as_row and bs_col, a scale per row of A, per
 * column of B; signs, GLOW_Q_*_SIGNED; b_packed, 1: B is int8, ceil(N/16) x
 * ceil(K/4) x 16 x 4 (compiler/passes/pack-weights.c; B's strides unused). */
typedef struct glow_abi_qmm {
  glow_abi_mm mm;
  int64_t as_row, bs_col, signs, b_packed;
} glow_abi_qmm;
_Static_assert(sizeof(glow_abi_qmm) == 31 * sizeof(int64_t), "glow_abi_qmm: 31 params");

/* Convolutions (kernels/conv.c, conv-transpose.c): N images, G groups of Cg input
 * and Mg output channels each, the window; float32 kernels take the fused
 * epilogue; conv_packed_f32 also panel_blocks, the blocks of 16 output channels
 * per packed weight panel (compiler/passes/pack-conv-weights.c). Other
 * dtypes, and ConvTranspose, read up to epi. */
typedef struct glow_abi_conv {
  int64_t N, G, Cg, Mg;
  glow_abi_win w;
  glow_abi_epi epi;
  int64_t panel_blocks;
} glow_abi_conv;
_Static_assert(offsetof(glow_abi_conv, epi) == 25 * sizeof(int64_t), "glow_abi_conv: the epilogue after the window");
_Static_assert(sizeof(glow_abi_conv) == 29 * sizeof(int64_t), "glow_abi_conv: 29 params");

/* ConvWinograd (kernels/conv-winograd.c, compiler/ops/nn-conv-winograd.c): N images
 * of C x H x W, M output channels of OH x OW, pt and pl the padding at the top and
 * the left (the bottom's and the right's follow from OH and OW), nb the blocks of
 * 16 output channels per panel of the transformed weights (compiler/passes/
 * winograd.c), the fused epilogue. */
typedef struct glow_abi_conv_wino {
  int64_t N, C, M, H, W, OH, OW, pt, pl, nb;
  glow_abi_epi epi;
} glow_abi_conv_wino;
_Static_assert(sizeof(glow_abi_conv_wino) == 13 * sizeof(int64_t), "glow_abi_conv_wino: 13 params");

/* ConvInteger (kernels/conv.c): wz_per_channel, w_zero_point holds one value per
 * output channel. */
typedef struct glow_abi_conv_integer {
  int64_t N, G, Cg, Mg, wz_per_channel;
  glow_abi_win w;
} glow_abi_conv_integer;
_Static_assert(sizeof(glow_abi_conv_integer) == 26 * sizeof(int64_t), "glow_abi_conv_integer: 26 params");

/* QLinearConv (kernels/qconv.c): signs, GLOW_Q_*_SIGNED; ws_per_channel and
 * wz_per_channel, w_scale and w_zero_point hold one value per output channel;
 * w_layout, 0: W is M x C/G x taps, 1: M x taps x C4, int8, C4 = C/G rounded up
 * to 4 (compiler/passes/pack-weights.c). */
typedef struct glow_abi_qconv {
  int64_t N, G, Cg, Mg, signs, ws_per_channel, wz_per_channel, w_layout;
  glow_abi_win w;
} glow_abi_qconv;
_Static_assert(sizeof(glow_abi_qconv) == 29 * sizeof(int64_t), "glow_abi_qconv: 29 params");

#endif
