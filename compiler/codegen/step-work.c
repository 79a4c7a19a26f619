/* The split decision of -num-threads: a step splits into parts only when each
 * part gets enough work to pay for handing it to another thread. Work is an
 * estimate of the step's time in units of one multiply-add of a dense float
 * convolution (about 0.013 ns on a Zen 5 core), from its shapes:
 *   - convolutions and matrix products: multiply-adds (outputs times the
 *     reduction), times 8 where each output sums fewer than 32 products
 *     (depthwise: 0.025-0.08 ns each, measured in mobilenet_v2, mnasnet0_5 and
 *     efficientnet_b0; shufflenet's 3x3 on 14 x 14 x 116, about 10 us, gained
 *     in 2 parts) or where the weights are read for one pixel or one row (a
 *     fully connected layer at batch 1, a 1x1 conv on a 1x1 plane: 0.11-0.19 ns
 *     each, bound by the weights' bytes), divided by 4 for 8-bit integers (a
 *     VNNI instruction does 4 times a float FMA's products);
 *   - pools: 4 per tap of each output;
 *   - other steps: 8 per element of the first input or the output, the larger
 *     (elementwise 0.07-0.1 ns an element; a broadcast writes each output once).
 * A split costs 2-4 us on the 2-core Zen 5 VM (the pool's round trip, 1 us, and
 * the other core's half of the data crossing back, about 8 ns a cache line),
 * and more while the host is busy (2-thread runs there swing by 1.5x between
 * spells): googlenet's convs of 1.4M multiply-adds (17-35 us) ran 1.5-1.8x
 * faster in 2 parts, the transformer's 16 x 128 x 128 Gemm (4 us) 1.5x slower,
 * and its 786k and 524k products, 6-9 us, gained in some spells and lost in
 * others; the default (GLOW_THREAD_MIN_WORK, 524288 a part) keeps steps under
 * about 13 us whole. */
#include "codegen/codegen-internal.h"

static int64_t numel(const glow_graph *g, int id) { return id >= 0 ? glow_value_numel(&g->vals[id]) : 0; }

static int is_int8_product(glow_op op) {
  return op == GLOW_OP_CONV_INTEGER || op == GLOW_OP_QLINEAR_CONV || op == GLOW_OP_QLINEAR_MAT_MUL ||
         op == GLOW_OP_MAT_MUL_INTEGER;
}

/* Multiply-adds of `macs` products of `red` terms each, `rows` outputs sharing the weights' reads. */
static int64_t product_work(glow_op op, int64_t macs, int64_t red, int64_t rows) {
  int64_t w = rows <= 1 || red < 32 ? macs * 8 : macs;
  return is_int8_product(op) ? w / 4 : w;
}

int64_t glow_step_work(const glow_graph *g, const glow_node *n) {
  int64_t out = n->nout > 0 ? numel(g, n->out[0]) : 0;
  const glow_value *y = n->nout > 0 ? &g->vals[n->out[0]] : NULL;
  int wi = n->op == GLOW_OP_CONV || n->op == GLOW_OP_CONV_INTEGER ? 1 : n->op == GLOW_OP_QLINEAR_CONV ? 3 : -1;
  if (wi >= 0 && n->nin > wi) { /* W: M x C/group x taps, so each output sums numel(W) / M products */
    const glow_value *w = &g->vals[n->in[wi]];
    if (w->rank == 0 || w->dims[0] <= 0)
      return out * 8;
    int64_t red = glow_value_numel(w) / w->dims[0];
    int64_t plane = y && y->rank > 2 && y->dims[0] * y->dims[1] > 0 ? out / (y->dims[0] * y->dims[1]) : out;
    return product_work(n->op, out * red, red, plane);
  }
  const int64_t *pw; /* ConvMaxPool: the conv's products (outputs: the pool's input plane) and the pool's taps */
  if (n->op == GLOW_OP_CONV_MAX_POOL && n->nin > 1 && y && y->rank == 4 && glow_attr_ints(n, "glow.pool_win", &pw) == 21) {
    const glow_value *w = &g->vals[n->in[1]];
    int64_t red = w->rank > 0 && w->dims[0] > 0 ? glow_value_numel(w) / w->dims[0] : 1, plane = pw[1] * pw[2];
    return product_work(n->op, y->dims[0] * y->dims[1] * plane * red, red, plane) + 4 * out * pw[7] * pw[8];
  }
  if (n->op == GLOW_OP_CONV_WINOGRAD && n->nin > 1) /* U: M x C x 6 x 6; the direct conv's 9 C products */
    return out * 9 * g->vals[n->in[1]].dims[1];
  if (n->op == GLOW_OP_GEMM || n->op == GLOW_OP_MAT_MUL || n->op == GLOW_OP_QLINEAR_MAT_MUL ||
      n->op == GLOW_OP_MAT_MUL_INTEGER) {
    const glow_value *a = &g->vals[n->in[0]];
    int trans_a = n->op == GLOW_OP_GEMM && glow_attr_int(n, "transA", 0);
    int64_t k = a->rank == 0 ? 1 : trans_a && a->rank == 2 ? a->dims[0] : a->dims[a->rank - 1];
    /* A's rows that share B: all of them where B is a constant matrix (the batch folds
     * into the rows), else the rows of one product. */
    int64_t rows = a->rank < 2 ? 1 : trans_a && a->rank == 2 ? a->dims[1] : a->dims[a->rank - 2];
    int bi = n->op == GLOW_OP_QLINEAR_MAT_MUL ? 3 : 1;
    const glow_value *b = n->nin > bi && n->in[bi] >= 0 ? &g->vals[n->in[bi]] : NULL;
    if (b && b->kind == GLOW_VAL_CONST && b->rank == 2 && k > 0)
      rows = glow_value_numel(a) / k;
    return product_work(n->op, out * k, k, rows);
  }
  /* The larger of the first input and the output: a broadcast's output (squeeze-excite's
   * per-channel scale, Mul(s, x) with s of 1 x C x 1 x 1) outgrows its first input. */
  int64_t in0 = n->nin > 0 ? numel(g, n->in[0]) : 0, work = 8 * (in0 > out ? in0 : out);
  const int64_t *ks;
  int nk = n->op == GLOW_OP_MAX_POOL || n->op == GLOW_OP_AVERAGE_POOL || n->op == GLOW_OP_LP_POOL ||
                   n->op == GLOW_OP_QLINEAR_AVERAGE_POOL
               ? glow_attr_ints(n, "kernel_shape", &ks)
               : -1;
  if (nk > 0) { /* 4 a tap of each output (googlenet's 3x3 MaxPools: 0.5 ns an input element) */
    int64_t taps = 1;
    for (int i = 0; i < nk; i++)
      taps *= ks[i] > 0 ? ks[i] : 1;
    work = work > 4 * out * taps ? work : 4 * out * taps;
  }
  return work;
}
