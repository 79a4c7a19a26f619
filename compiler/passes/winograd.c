/* require shapes; maintains order. Float32 3x3 Convs with unit strides and
 * dilations and one group, on planes of o->conv_winograd outputs and more (14 x 14;
 * 20 x 20 on CPUs with two 512-bit FMAs: glow_target_winograd), become
 * ConvWinograd nodes (ops/nn-conv-winograd.c) where the target runs them
 * (targets whose stacks hold the kernel's 220 KiB of buffers):
 * W becomes U, its Winograd transform, 4 times W's size (36 values for 9), in
 * a new constant (the original may be shared); the node keeps its inputs,
 * epilogue and residual. Runs when compiling only (compile.c), after
 * fuse-epilogue and before pack-conv-weights, which packs the convs left. */
#include <stdlib.h>

#include "glowc.h"

static void make_winograd(glow_graph *g, int node_id, int nb, const int64_t pads[4]) {
  glow_node *n = &g->nodes[node_id];
  const glow_value *w = &g->vals[n->in[1]];
  int64_t m = w->dims[0], c = w->dims[1], dims[4] = {m, c, 6, 6};
  float *u = glow_xmalloc(sizeof(float) * (size_t)(36 * m * c));
  glow_winograd_weights(w->data, m, c, nb, u);
  char suffix[32];
  snprintf(suffix, sizeof suffix, ".winograd%d", nb);
  int id = glow_value_add_derived(g, n->in[1], suffix, GLOW_DT_F32, 4, dims, u); /* w is not read after it */
  free(u);
  n = &g->nodes[node_id];
  n->op = GLOW_OP_CONV_WINOGRAD;
  n->in[1] = id;
  glow_attr_add_ints(n, "glow.wino_pads", 4, pads);
  glow_attr_add_int(n, "glow.wino_nb", nb);
}

int glow_pass_winograd(glow_graph *g, const glow_pass_options *o) {
  int made = 0;
  for (int i = 0; o->conv_winograd && i < g->nnodes; i++) {
    int64_t pads[4];
    int nb = g->nodes[i].dead ? 0 : glow_conv_winograd_fit(g, &g->nodes[i], o->conv_tile_blocks, o->conv_winograd, pads);
    if (nb) {
      make_winograd(g, i, nb, pads);
      made++;
    }
  }
  if (o->verbose && made)
    glow_note("winograd: %d float32 3x3 convs run by Winograd F(4x4, 3x3)\n", made);
  return 0;
}
