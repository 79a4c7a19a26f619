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
/* The index of a field in the params: glow_kcall_split() takes it. */
#define GLOW_ABI_INDEX(type, field) ((int)(offsetof(type, field) / sizeof(int64_t)))

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

/* ConvMaxPool (kernels/conv-pool.c, compiler/ops/nn-conv-pool.c): a float32 2-D Conv
 * whose weights are packed (conv_packed_f32's parameters, conv) and the MaxPool after it
 * (pool, its window over the conv's output), in one step: the conv's output rows go
 * through a stack ring of GLOW_CONV_POOL_RING_FLOATS floats (the rows one pool row
 * reads, all channels: (pool k - 1) * dilation + 1 rows of M x OW) instead of memory. */
typedef struct glow_abi_conv_pool {
  glow_abi_conv conv;
  glow_abi_win pool;
} glow_abi_conv_pool;
_Static_assert(sizeof(glow_abi_conv_pool) == 50 * sizeof(int64_t), "glow_abi_conv_pool: 50 params");
#define GLOW_CONV_POOL_RING_FLOATS 32768
#define GLOW_CONV_POOL_MAX_ROWS 16 /* rows of the pool window */

/* Whether the kernel runs this pair: 2-D, the pool over the conv's output, its window's
 * rows at most GLOW_CONV_POOL_MAX_ROWS and in the ring (the pass, the op and the kernel
 * all ask this). */
static inline int glow_conv_pool_fits(const glow_abi_conv *c, const glow_abi_win *p) {
  int64_t span = (p->k[1] - 1) * p->d[1] + 1;
  return c->w.in[0] == 1 && p->in[0] == 1 && p->k[0] == 1 && p->in[1] == c->w.out[1] && p->in[2] == c->w.out[2] &&
         p->out[1] >= 1 && p->out[2] >= 1 && p->k[1] >= 1 && p->k[1] <= GLOW_CONV_POOL_MAX_ROWS &&
         span * c->G * c->Mg * c->w.out[2] <= GLOW_CONV_POOL_RING_FLOATS;
}

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

/* ---- The other families: one struct each, named for the family ----
 *
 * A struct ending in a flexible array (`int64_t dims[]`) is followed by
 * variable-length arrays: the first is the named field, the ones after it are
 * reached through the GLOW_ABI_*() accessors below the struct, in the order its
 * comment gives. They are macros: a static function would be defined in every
 * kernel file that reads it, and the renames that linking the kernels makes of
 * such functions would rename other local symbols of the bundles. The lowering
 * fills the fixed fields by name, appends them with glow_kcall_abi(kc, &a,
 * sizeof a), then appends the arrays in that order. */

/* n units and nothing else: copy (n bytes; kernels/copy.c, ops/op-util.c),
 * cast_* (n elements; ew-cast.c, ops/elementwise-cast.c), dynamic_quantize_f32
 * and int_lookup (n elements; quant.c, ops/quant-linear.c, quant-lookup.c). */
typedef struct glow_abi_count {
  int64_t n;
} glow_abi_count;
_Static_assert(sizeof(glow_abi_count) == 1 * sizeof(int64_t), "glow_abi_count: 1 param");

/* Unary math over n elements (kernels/unary-math.c, ops/unary-math.c): a and b,
 * the op's attributes (doubles' bits). */
typedef struct glow_abi_unary {
  int64_t n, a, b;
} glow_abi_unary;
_Static_assert(sizeof(glow_abi_unary) == 3 * sizeof(int64_t), "glow_abi_unary: 3 params");

/* Clip over n elements (kernels/unary-clip.c, ops/unary-clip.c): each bound's
 * mode, 0: none, 1: the bound in min or max (doubles' bits for float types,
 * the value for integers), 2: the bound is the scalar tensor. */
typedef struct glow_abi_clip {
  int64_t n, min_mode, min, max_mode, max;
} glow_abi_clip;
_Static_assert(sizeof(glow_abi_clip) == 5 * sizeof(int64_t), "glow_abi_clip: 5 params");

/* Dropout as Identity (kernels/unary-clip.c, ops/unary-clip.c): x_bytes of
 * data to copy; n mask elements of mask_size bytes, each the bytes of
 * mask_bits (true in the mask's dtype), lowest first. */
typedef struct glow_abi_dropout {
  int64_t x_bytes, n, mask_size, mask_bits;
} glow_abi_dropout;
_Static_assert(sizeof(glow_abi_dropout) == 4 * sizeof(int64_t), "glow_abi_dropout: 4 params");

/* Broadcast elementwise over ni inputs (kernels/elementwise.h's GLOW_EW_ROWS:
 * the binary kernels, where, qlinear_add and qlinear_mul in quant.c, prelu in
 * unary-clip.c; ops/elementwise-util.c, unary-clip.c): r merged axes, dims[r]
 * (the output's), then each input's strides[r] (elements; 0 where it
 * broadcasts). qlinear_add and qlinear_mul take one more param after them,
 * the int8 flag (GLOW_ABI_EW_END()). */
typedef struct glow_abi_ew {
  int64_t r;
  int64_t dims[];
} glow_abi_ew;
_Static_assert(sizeof(glow_abi_ew) == 1 * sizeof(int64_t), "glow_abi_ew: 1 param, then the arrays");
/* Input 0's strides; input k's follow input k - 1's. */
#define GLOW_ABI_EW_STRIDES(a) ((a)->dims + (a)->r)
/* What follows the strides of ni inputs. */
#define GLOW_ABI_EW_END(a, ni) ((a)->dims + (1 + (ni)) * (a)->r)

/* Variadic Sum, Mean, Max, Min of n inputs (kernels/ew-variadic.c,
 * ops/elementwise-variadic.c): n, then the broadcast of glow_abi_ew. */
typedef struct glow_abi_ew_n {
  int64_t n, r;
  int64_t dims[];
} glow_abi_ew_n;
_Static_assert(sizeof(glow_abi_ew_n) == 2 * sizeof(int64_t), "glow_abi_ew_n: 2 params, then the arrays");
#define GLOW_ABI_EW_N_STRIDES(a) ((a)->dims + (a)->r)

/* One axis of len elements between outer rows and inner columns: ArgMax and
 * ArgMin (kernels/argmax.c, ops/reduce-arg.c), last: the last extreme. */
typedef struct glow_abi_argmax {
  int64_t outer, len, inner, last;
} glow_abi_argmax;
_Static_assert(sizeof(glow_abi_argmax) == 4 * sizeof(int64_t), "glow_abi_argmax: 4 params");

/* Softmax, LogSoftmax, Hardmax along one axis (kernels/softmax.c, ops/reduce-softmax.c). */
typedef struct glow_abi_softmax {
  int64_t outer, len, inner;
} glow_abi_softmax;
_Static_assert(sizeof(glow_abi_softmax) == 3 * sizeof(int64_t), "glow_abi_softmax: 3 params");

/* CumSum (kernels/scan.c, ops/tensor-scan.c). */
typedef struct glow_abi_cumsum {
  int64_t outer, len, inner, exclusive, reverse;
} glow_abi_cumsum;
_Static_assert(sizeof(glow_abi_cumsum) == 5 * sizeof(int64_t), "glow_abi_cumsum: 5 params");

/* TopK (kernels/scan.c, ops/tensor-scan.c). */
typedef struct glow_abi_topk {
  int64_t outer, len, inner, k, largest;
} glow_abi_topk;
_Static_assert(sizeof(glow_abi_topk) == 5 * sizeof(int64_t), "glow_abi_topk: 5 params");

/* QuantizeLinear, DequantizeLinear (kernels/quant.c, ops/quant-linear.c): the
 * scale's axis of len elements (1: per tensor); sign, the int8 flag of the
 * quantized side (dequantize_i32 ignores it). */
typedef struct glow_abi_quantize {
  int64_t outer, len, inner, sign;
} glow_abi_quantize;
_Static_assert(sizeof(glow_abi_quantize) == 4 * sizeof(int64_t), "glow_abi_quantize: 4 params");

/* QLinearGlobalAveragePool (kernels/quant.c, ops/quant-pool.c): planes (N * C)
 * of size elements; sign, the int8 flag. */
typedef struct glow_abi_qgap {
  int64_t planes, size, sign;
} glow_abi_qgap;
_Static_assert(sizeof(glow_abi_qgap) == 3 * sizeof(int64_t), "glow_abi_qgap: 3 params");

/* Det of batch m x m matrices (kernels/det.c, ops/nn-det.c). */
typedef struct glow_abi_det {
  int64_t batch, m;
} glow_abi_det;
_Static_assert(sizeof(glow_abi_det) == 2 * sizeof(int64_t), "glow_abi_det: 2 params");

/* DFT and STFT (kernels/dft.c, ops/signal-dft.c): outer x frames x nbins x
 * inner outputs; cin, 1: real input, 2: complex; nread samples of a frame of n;
 * inverse; x_outer, x_frame, x_sample: the input's strides. */
typedef struct glow_abi_dft {
  int64_t outer, frames, inner, cin, nread, n, nbins, inverse, x_outer, x_frame, x_sample;
} glow_abi_dft;
_Static_assert(sizeof(glow_abi_dft) == 11 * sizeof(int64_t), "glow_abi_dft: 11 params");

/* Einsum (kernels/einsum.c, ops/nn-einsum.c): nin inputs, nl labels, the first
 * nout the output's; size[nl], then each input's strides[nl]. */
typedef struct glow_abi_einsum {
  int64_t nin, nl, nout;
  int64_t size[];
} glow_abi_einsum;
_Static_assert(sizeof(glow_abi_einsum) == 3 * sizeof(int64_t), "glow_abi_einsum: 3 params, then the arrays");
/* Input 0's strides; input i's follow input i - 1's. */
#define GLOW_ABI_EINSUM_STRIDES(a) ((a)->size + (a)->nl)

/* Range (kernels/generate.c, ops/tensor-shape.c): n elements; start and delta,
 * doubles' bits for float types, integers otherwise. */
typedef struct glow_abi_range {
  int64_t n, start, delta;
} glow_abi_range;
_Static_assert(sizeof(glow_abi_range) == 3 * sizeof(int64_t), "glow_abi_range: 3 params");

/* Hann, Hamming, Blackman windows (kernels/generate.c, ops/tensor-window.c):
 * size elements; n, a0, a1, a2, doubles' bits. */
typedef struct glow_abi_window {
  int64_t size, n, a0, a1, a2;
} glow_abi_window;
_Static_assert(sizeof(glow_abi_window) == 5 * sizeof(int64_t), "glow_abi_window: 5 params");

/* EyeLike (kernels/generate.c, ops/tensor-shape.c): one, the raw bits of 1 in
 * the output's dtype. */
typedef struct glow_abi_eyelike {
  int64_t rows, cols, k, one;
} glow_abi_eyelike;
_Static_assert(sizeof(glow_abi_eyelike) == 4 * sizeof(int64_t), "glow_abi_eyelike: 4 params");

/* Trilu (kernels/generate.c, ops/tensor-shape.c). */
typedef struct glow_abi_trilu {
  int64_t batch, rows, cols, upper;
} glow_abi_trilu;
_Static_assert(sizeof(glow_abi_trilu) == 4 * sizeof(int64_t), "glow_abi_trilu: 4 params");

/* MelWeightMatrix (kernels/generate.c, ops/signal-mel.c): bins[nmel + 2], the
 * spectrogram bins of the filters' edges. */
typedef struct glow_abi_melweight {
  int64_t nspec, nmel;
  int64_t bins[];
} glow_abi_melweight;
_Static_assert(sizeof(glow_abi_melweight) == 2 * sizeof(int64_t), "glow_abi_melweight: 2 params, then bins");

/* GridSample (kernels/grid-sample.c, ops/nn-gridsample.c): X's N, C, H, W; P
 * output positions. */
typedef struct glow_abi_gridsample {
  int64_t N, C, H, W, P, mode, padding, align_corners;
} glow_abi_gridsample;
_Static_assert(sizeof(glow_abi_gridsample) == 8 * sizeof(int64_t), "glow_abi_gridsample: 8 params");

/* RoiAlign (kernels/roi-align.c, ops/nn-roialign.c): X's N, C, H, W; R regions
 * of oh x ow; ratio, the sampling ratio (0: adaptive); scale, the spatial scale
 * (double bits). */
typedef struct glow_abi_roialign {
  int64_t N, C, H, W, R, oh, ow, ratio, scale, half_pixel, max_mode;
} glow_abi_roialign;
_Static_assert(sizeof(glow_abi_roialign) == 11 * sizeof(int64_t), "glow_abi_roialign: 11 params");

/* ---- Indices (kernels/indexing.c): idt, the ONNX dtype code of the indices;
 * red, a scatter's reduction (0 none, 1 add, 2 mul, 3 max, 4 min) ---- */

/* Gather (ops/tensor-gather.c): nidx indices into an axis of len. */
typedef struct glow_abi_gather {
  int64_t outer, len, inner, nidx, idt;
} glow_abi_gather;
_Static_assert(sizeof(glow_abi_gather) == 5 * sizeof(int64_t), "glow_abi_gather: 5 params");

/* GatherElements (ops/tensor-gather.c): rank r (1..8); idx_dims[r], then
 * data_dims[r]. */
typedef struct glow_abi_gather_elements {
  int64_t r, axis, idt;
  int64_t idx_dims[];
} glow_abi_gather_elements;
_Static_assert(sizeof(glow_abi_gather_elements) == 3 * sizeof(int64_t),
               "glow_abi_gather_elements: 3 params, then the arrays");
#define GLOW_ABI_GATHER_ELEMENTS_DATA_DIMS(a) ((a)->idx_dims + (a)->r)

/* ScatterElements (ops/tensor-scatter.c): as GatherElements, and red. */
typedef struct glow_abi_scatter_elements {
  int64_t r, axis, idt, red;
  int64_t idx_dims[];
} glow_abi_scatter_elements;
_Static_assert(sizeof(glow_abi_scatter_elements) == 4 * sizeof(int64_t),
               "glow_abi_scatter_elements: 4 params, then the arrays");
#define GLOW_ABI_SCATTER_ELEMENTS_DATA_DIMS(a) ((a)->idx_dims + (a)->r)

/* GatherND (ops/tensor-gather.c): B batches of N tuples of K indices, each
 * picking a slice of S elements; batch_stride, a data batch's elements;
 * dims[K], then strides[K], of the indexed axes. */
typedef struct glow_abi_gather_nd {
  int64_t B, N, K, S, batch_stride, idt;
  int64_t dims[];
} glow_abi_gather_nd;
_Static_assert(sizeof(glow_abi_gather_nd) == 6 * sizeof(int64_t), "glow_abi_gather_nd: 6 params, then the arrays");
#define GLOW_ABI_GATHER_ND_STRIDES(a) ((a)->dims + (a)->K)

/* ScatterND (ops/tensor-scatter.c): numel, data's elements; N tuples of K
 * indices, each updating a slice of S; dims[K], then strides[K]. */
typedef struct glow_abi_scatter_nd {
  int64_t numel, N, K, S, idt, red;
  int64_t dims[];
} glow_abi_scatter_nd;
_Static_assert(sizeof(glow_abi_scatter_nd) == 6 * sizeof(int64_t), "glow_abi_scatter_nd: 6 params, then the arrays");
#define GLOW_ABI_SCATTER_ND_STRIDES(a) ((a)->dims + (a)->K)

/* OneHot (ops/tensor-gather.c). */
typedef struct glow_abi_onehot {
  int64_t outer, depth, inner, idt;
} glow_abi_onehot;
_Static_assert(sizeof(glow_abi_onehot) == 4 * sizeof(int64_t), "glow_abi_onehot: 4 params");

/* ReverseSequence (ops/tensor-reverse.c): time_axis, 0: [time, batch, ...],
 * 1: [batch, time, ...]. */
typedef struct glow_abi_reverse_sequence {
  int64_t time, batch, inner, time_axis, idt;
} glow_abi_reverse_sequence;
_Static_assert(sizeof(glow_abi_reverse_sequence) == 5 * sizeof(int64_t), "glow_abi_reverse_sequence: 5 params");

/* MaxUnpool (ops/nn-unpool.c): out_n, in_n, the output's and the data's elements. */
typedef struct glow_abi_unpool {
  int64_t out_n, in_n, idt;
} glow_abi_unpool;
_Static_assert(sizeof(glow_abi_unpool) == 3 * sizeof(int64_t), "glow_abi_unpool: 3 params");

/* NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss (kernels/loss.c,
 * ops/reduce-loss.c): input [N, C, D]; reduction, 0 none, 1 sum, 2 mean. */
typedef struct glow_abi_loss {
  int64_t N, C, D, reduction, has_weight, has_ignore_index, ignore_index;
} glow_abi_loss;
_Static_assert(sizeof(glow_abi_loss) == 7 * sizeof(int64_t), "glow_abi_loss: 7 params");

/* ---- Data movement (kernels/movement.c; ops/tensor-util.c, tensor-concat.c,
 * tensor-shape.c) ---- */

/* A strided copy (Transpose, Slice, Expand, ...): rank r (1..16), in_offset;
 * dims[r], then in_strides[r] (elements; 0 or negative allowed). */
typedef struct glow_abi_copy_strided {
  int64_t r, in_offset;
  int64_t dims[];
} glow_abi_copy_strided;
_Static_assert(sizeof(glow_abi_copy_strided) == 2 * sizeof(int64_t),
               "glow_abi_copy_strided: 2 params, then the arrays");
#define GLOW_ABI_COPY_STRIDED_STRIDES(a) ((a)->dims + (a)->r)

/* A copy through per-axis tables (Pad, nearest Resize, Compress): rank r
 * (1..16), fill_bits (the fill element's raw bits, unless the fill tensor is
 * given); dims[r], then for each axis d, dims[d] input offsets (elements; -1
 * gives the fill element). */
typedef struct glow_abi_copy_table {
  int64_t r, fill_bits;
  int64_t dims[];
} glow_abi_copy_table;
_Static_assert(sizeof(glow_abi_copy_table) == 2 * sizeof(int64_t), "glow_abi_copy_table: 2 params, then the arrays");
/* Axis 0's table; axis d's follows axis d - 1's. */
#define GLOW_ABI_COPY_TABLE_TABLES(a) ((a)->dims + (a)->r)

/* ConstantOfShape and the like: n elements of the raw bits `bits`. */
typedef struct glow_abi_fill {
  int64_t n, bits;
} glow_abi_fill;
_Static_assert(sizeof(glow_abi_fill) == 2 * sizeof(int64_t), "glow_abi_fill: 2 params");

/* Concat and Split (and qlinear_concat in quant.c, ops/quant-concat.c, which
 * takes the int8 flag after len, at len[k]): k parts (k <= 63), outer rows;
 * len[k], the elements each part adds to a row. */
typedef struct glow_abi_concat {
  int64_t k, outer;
  int64_t len[];
} glow_abi_concat;
_Static_assert(sizeof(glow_abi_concat) == 2 * sizeof(int64_t), "glow_abi_concat: 2 params, then len");

/* ---- Normalization (kernels/norm.c, ops/nn-norm.c); eps: double bits ---- */

/* BatchNormalization: N x C x S (elements per channel). */
typedef struct glow_abi_batchnorm {
  int64_t N, C, S, eps;
} glow_abi_batchnorm;
_Static_assert(sizeof(glow_abi_batchnorm) == 4 * sizeof(int64_t), "glow_abi_batchnorm: 4 params");

/* InstanceNormalization: NC (N * C) planes of S; C channels. */
typedef struct glow_abi_instancenorm {
  int64_t NC, C, S, eps;
} glow_abi_instancenorm;
_Static_assert(sizeof(glow_abi_instancenorm) == 4 * sizeof(int64_t), "glow_abi_instancenorm: 4 params");

/* LayerNormalization: outer rows of inner; scale_one, bias_one: the scale, the
 * bias is one value. */
typedef struct glow_abi_layernorm {
  int64_t outer, inner, scale_one, bias_one, eps;
} glow_abi_layernorm;
_Static_assert(sizeof(glow_abi_layernorm) == 5 * sizeof(int64_t), "glow_abi_layernorm: 5 params");

/* LRN: N x C x S; channels lo before and hi after; alpha (already divided by
 * size), beta, bias: double bits. */
typedef struct glow_abi_lrn {
  int64_t N, C, S, lo, hi, alpha, beta, bias;
} glow_abi_lrn;
_Static_assert(sizeof(glow_abi_lrn) == 8 * sizeof(int64_t), "glow_abi_lrn: 8 params");

/* MeanVarianceNormalization: the kept and the reduced axes as up to 4 runs
 * each, right-aligned (extent 1, stride 0 before them). */
typedef struct glow_abi_mvn {
  int64_t kept_dims[4], kept_strides[4], red_dims[4], red_strides[4];
} glow_abi_mvn;
_Static_assert(sizeof(glow_abi_mvn) == 16 * sizeof(int64_t), "glow_abi_mvn: 16 params");

/* ---- Reductions over axes (kernels/reduce.c, ops/reduce-axes.c) ----
 * The input's axes collapsed into runs: nk kept runs, kept_dims[nk] then
 * kept_strides[nk]; then nr reduced runs (at least one: {1} with stride 0
 * when nothing is reduced), red_dims[nr] then red_strides[nr]; then inner,
 * the trailing contiguous kept extent (1 when the last axis is reduced). */
typedef struct glow_abi_reduce {
  int64_t nk;
  int64_t kept_dims[];
} glow_abi_reduce;
_Static_assert(sizeof(glow_abi_reduce) == 1 * sizeof(int64_t), "glow_abi_reduce: 1 param, then the arrays");
#define GLOW_ABI_REDUCE_KEPT_STRIDES(a) ((a)->kept_dims + (a)->nk)
#define GLOW_ABI_REDUCE_NR(a) ((a)->kept_dims[2 * (a)->nk])
#define GLOW_ABI_REDUCE_RED_DIMS(a) ((a)->kept_dims + 2 * (a)->nk + 1)
#define GLOW_ABI_REDUCE_RED_STRIDES(a) (GLOW_ABI_REDUCE_RED_DIMS(a) + GLOW_ABI_REDUCE_NR(a))
#define GLOW_ABI_REDUCE_INNER(a) (GLOW_ABI_REDUCE_RED_DIMS(a)[2 * GLOW_ABI_REDUCE_NR(a)])

/* ---- Linear and cubic Resize (kernels/resize.c, ops/tensor-resize.c) ----
 * Rank r (1..8), extrapolation (double bits); ntaps[r], then dims[r] (the
 * output's), then for each axis d: dims[d] * ntaps[d] input offsets (elements;
 * a first tap of -1 marks a position outside the input), then as many weights
 * (double bits). */
typedef struct glow_abi_resize {
  int64_t r, extrapolation;
  int64_t ntaps[];
} glow_abi_resize;
_Static_assert(sizeof(glow_abi_resize) == 2 * sizeof(int64_t), "glow_abi_resize: 2 params, then the arrays");
#define GLOW_ABI_RESIZE_DIMS(a) ((a)->ntaps + (a)->r)
/* Axis 0's offsets; each axis's weights follow its offsets, the next axis's offsets its weights. */
#define GLOW_ABI_RESIZE_TAPS(a) ((a)->ntaps + 2 * (a)->r)

/* ---- TfIdfVectorizer (kernels/tfidf.c, ops/text-tfidf.c) ----
 * rows x cols tokens into rows x nout; mode, 0 TF, 1 IDF, 2 TFIDF; nwords of
 * pool entries {n, output index, n tokens}, then nout weights (doubles' bits). */
typedef struct glow_abi_tfidf {
  int64_t rows, cols, nout, mode, min_n, max_n, max_skip, nwords;
  int64_t entries[];
} glow_abi_tfidf;
_Static_assert(sizeof(glow_abi_tfidf) == 8 * sizeof(int64_t), "glow_abi_tfidf: 8 params, then the arrays");
#define GLOW_ABI_TFIDF_WEIGHTS(a) ((a)->entries + (a)->nwords)

/* ---- RNN, GRU, LSTM (kernels/rnn.c, ops/nn-rnn.c; targets/cuda/target.c
 * reads kind and H) ---- */

/* An activation: id (as ops/nn-rnn.c numbers them), alpha, beta (doubles' bits). */
typedef struct glow_abi_rnn_act {
  int64_t id, alpha, beta;
} glow_abi_rnn_act;

/* kind, 0 RNN, 1 GRU, 2 LSTM; S steps, N batch, I inputs, H hidden, D
 * directions; reverse (when D is 1); strides: X's step and batch, Y's step,
 * direction and batch, Y_h's (and Y_c's, initial_h's, initial_c's) direction
 * and batch; clip (double bits, 0: none); the activations f, g, h of each
 * direction (the first's again when D is 1). */
typedef struct glow_abi_rnn {
  int64_t kind, S, N, I, H, D, reverse;
  int64_t x_step, x_batch, y_step, y_dir, y_batch, h_dir, h_batch;
  int64_t clip, input_forget, linear_before_reset;
  glow_abi_rnn_act act[2][3];
} glow_abi_rnn;
_Static_assert(sizeof(glow_abi_rnn) == 35 * sizeof(int64_t), "glow_abi_rnn: 35 params");

#endif
