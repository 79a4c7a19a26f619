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

#endif
