/* require shapes; maintains order. Lays the constant weights of float32 convs
 * that the fast conv kernel runs (targets/common/kernels/conv.c) out as its
 * register tiles read them, so that it packs nothing at run time: per block of
 * 16 * nb output channels (nb = glow_conv_panel_blocks(): 4, 2 or 1, at most the
 * target's o->conv_tile_blocks), panel[tap][c][16 * nb] = W[block + j][c][tap],
 * blocks one after another, and the node gets glow.w_panel = nb. W keeps its
 * shape and size where M/group is a multiple of 16 * nb; otherwise (one group
 * only) its last block is padded with zero rows, W's first dimension grows to
 * whole blocks and the node keeps the real M in glow.w_m. Runs when compiling
 * only (compile.c): the interpreter reads W as ONNX lays it out. A new constant
 * is created (the original may be shared). */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

static void pack(glow_graph *g, int node_id, int64_t nb) {
  glow_node *n = &g->nodes[node_id];
  const glow_value *w = &g->vals[n->in[1]];
  int64_t m = w->dims[0], cg = w->dims[1], taps = glow_value_numel(w) / (m * cg), bw = 16 * nb, k = cg * taps;
  int64_t mp = (m + bw - 1) / bw * bw; /* rows m.. of the last block: zero */
  float *d = glow_xmalloc(sizeof(float) * (size_t)(mp * k));
  memset(d, 0, sizeof(float) * (size_t)(mp * k));
  const float *s = w->data;
  for (int64_t o = 0; o < m; o++)
    for (int64_t c = 0; c < cg; c++)
      for (int64_t t = 0; t < taps; t++)
        d[o / bw * bw * k + (t * cg + c) * bw + o % bw] = s[(o * cg + c) * taps + t];
  char suffix[32];
  snprintf(suffix, sizeof suffix, ".panel%lld", (long long)nb);
  int rank = w->rank;
  int64_t dims[GLOW_MAX_RANK];
  for (int i = 0; i < rank; i++)
    dims[i] = w->dims[i];
  dims[0] = mp;
  int id = glow_value_add_derived(g, n->in[1], suffix, GLOW_DT_F32, rank, dims, d); /* w is not read after it */
  free(d);
  n = &g->nodes[node_id];
  n->in[1] = id;
  glow_attr_add_int(n, "glow.w_panel", nb);
  if (mp != m)
    glow_attr_add_int(n, "glow.w_m", m);
}

int glow_pass_pack_conv_weights(glow_graph *g, const glow_pass_options *o) {
  int packed = 0;
  for (int i = 0; i < g->nnodes; i++) {
    int nb = g->nodes[i].dead ? 0 : glow_conv_panel_blocks(g, &g->nodes[i], o->conv_tile_blocks);
    if (nb) {
      pack(g, i, nb);
      packed++;
    }
  }
  if (o->verbose && packed)
    glow_note("pack-conv-weights: %d float32 conv weights laid out in panels\n", packed);
  return 0;
}
