/* require shapes; maintains order. A float32 2-D Conv whose weights are packed
 * (pack-conv-weights ran) and whose output's only use is a MaxPool (no Indices
 * output) becomes one ConvMaxPool node (ops/nn-conv-pool.c) that writes the
 * MaxPool's output; the MaxPool dies, and so does the conv's output, which was
 * written to memory and read back (kernels/conv-pool.c says what that cost).
 * Only where the target's thread stacks hold the kernel's ring (o->conv_winograd:
 * the same stacks as Winograd's buffers), the ring holds the rows of one pool
 * window (GLOW_CONV_POOL_RING_FLOATS) and the conv has no fused residual. Runs
 * when compiling only (compile.c), after pack-conv-weights. */
#include <stdlib.h>

#include "glowc.h"
#include "ops/nn-util.h"

/* The MaxPool that is node c's output's only use, or -1. */
static int sole_max_pool(const glow_graph *g, const int *uses, const glow_node *c) {
  int p = glow_sole_user(g, uses, c->out[0]);
  if (p < 0)
    return -1;
  const glow_node *n = &g->nodes[p];
  int indices = n->nout > 1 && n->out[1] >= 0;
  return n->op == GLOW_OP_MAX_POOL && !indices && n->in[0] == c->out[0] && g->vals[n->out[0]].dt == GLOW_DT_F32 ? p : -1;
}

/* Where fusing pays: the kernel makes the conv's output a row at a time, reading all its
 * weights for each row; that pays where the output is too large to stay in cache
 * between two steps and the weights are small enough to (stem convs: squeezenet1_1's
 * 3 -> 64 3x3 s2, 3.2 MB out, 7 KB of weights; resnet18's 7x7, 3.2 MB and 38 KB). Where
 * the output is smaller and the weights larger (alexnet's 5x5 64 -> 192 on 27 x 27, 1.2
 * MB of weights), the rows re-read the weights (alexnet 5% slower, Zen 5). */
#define CONV_POOL_MIN_OUTPUT (1 << 20)
#define CONV_POOL_MAX_WEIGHTS (128 << 10)

static int pays(const glow_abi_conv *c) {
  int64_t M = c->G * c->Mg, taps = c->w.k[0] * c->w.k[1] * c->w.k[2];
  return c->N * M * c->w.out[1] * c->w.out[2] * 4 >= CONV_POOL_MIN_OUTPUT && M * c->Cg * taps * 4 <= CONV_POOL_MAX_WEIGHTS;
}

int glow_pass_fuse_conv_pool(glow_graph *g, const glow_pass_options *o) {
  if (!o->conv_winograd)
    return 0;
  int *uses = glow_use_counts(g);
  int fused = 0;
  for (int i = 0; i < g->nnodes; i++) {
    glow_node *c = &g->nodes[i];
    glow_abi_conv ca;
    glow_abi_win pw;
    if (c->dead || c->op != GLOW_OP_CONV || c->nin > 3 || glow_in(g, c, 0)->rank != 4 ||
        glow_conv_f32_abi(g, c, &ca) || !ca.panel_blocks || !pays(&ca))
      continue;
    int p = sole_max_pool(g, uses, c);
    if (p < 0 || glow_nn_pool_win(g, &g->nodes[p], &pw) || !glow_conv_pool_fits(&ca, &pw))
      continue;
    glow_attr_add_ints(c, "glow.pool_win", 21, (const int64_t *)&pw);
    glow_node_take_output(g, i, p);
    g->nodes[i].op = GLOW_OP_CONV_MAX_POOL;
    fused++;
  }
  free(uses);
  if (o->verbose && fused)
    glow_note("fuse-conv-pool: %d convolutions run with the MaxPool after them\n", fused);
  return 0;
}
