/* ConvMaxPool: glowc's own node for a float32 2-D Conv whose weights are packed
 * (it runs as conv_packed_f32) and the MaxPool that is its output's only use, run
 * as one step by glow_k_conv_maxpool_f32 (targets/common/kernels/conv-pool.c,
 * which says why). passes/fuse-conv-pool.c makes it of the Conv when compiling:
 * the Conv's inputs (X, W packed, B) and attributes, its fused epilogue, and
 * glow.pool_win, the MaxPool's window over the conv's output as the kernels read
 * it (glow_abi_win: in, out, k, s, d, pb, pe, 3 each, spatial axes right-aligned);
 * its output is the MaxPool's. It is not read from models and has no reference
 * semantics of its own (the interpreter runs the Conv and MaxPool it was made of). */
#include <string.h>

#include "ops/nn-util.h"

static int conv_pool_get(const glow_graph *g, const glow_node *n, glow_abi_conv_pool *a) {
  const int64_t *pw;
  if (glow_attr_ints(n, "glow.pool_win", &pw) != 21)
    return glow_node_error(g, n, "ConvMaxPool is glowc's own node, made when compiling a Conv and MaxPool; a model "
                                 "cannot use it");
  if (glow_conv_f32_abi(g, n, &a->conv) || !a->conv.panel_blocks)
    return glow_node_error(g, n, "ConvMaxPool's conv must be float32 2-D with packed weights (glow.w_panel)");
  memcpy(&a->pool, pw, sizeof a->pool);
  if (!glow_conv_pool_fits(&a->conv, &a->pool))
    return glow_node_error(g, n, "glow.pool_win does not fit the conv's 2-D output or the kernel's ring");
  return 0;
}

static int infer_conv_pool(glow_graph *g, glow_node *n) {
  glow_abi_conv_pool a;
  if (conv_pool_get(g, n, &a))
    return -1;
  int64_t dims[4] = {a.conv.N, a.conv.G * a.conv.Mg, a.pool.out[1], a.pool.out[2]};
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_F32, 4, dims);
  return 0;
}

static int eval_conv_pool(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  (void)outs, (void)ins;
  return glow_node_error(g, n, "ConvMaxPool is made when compiling only; the interpreter runs its Conv and MaxPool");
}

static int lower_conv_pool(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_abi_conv_pool a;
  if (conv_pool_get(g, n, &a))
    return -1;
  glow_kcall_init(kc, "glow_k_conv_maxpool_f32");
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 3; i++) /* X, W, B */
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_CONV_MAX_POOL = {"ConvMaxPool", 2, 3, 1, 1, infer_conv_pool, eval_conv_pool,
                                            lower_conv_pool};
