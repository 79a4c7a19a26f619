/* require shapes; maintains order. Lays constant int8 weights out as the
 * int8 kernels read them (kernels/qconv.c, kernels/qgemm.c):
 *   QLinearConv: W[M][C/G][K1..] becomes W'[M][K1..][C4], C4 = C/G rounded up
 *   to 4 and zero padded, so the 4 input channels of one tap are one 32-bit
 *   word, a step of a u8 x s8 dot product; the node gets glow.w_layout = 1.
 *   Only where the padding adds at most a third (C/G >= 3).
 *   QLinearMatMul: a 2-D B[K][N] becomes B'[N/16][K/4][16][4] (rounded up, zero
 *   padded): 16 columns x 4 rows of B, 64 bytes, one vector of a dot-product
 *   step; the node gets glow.b_layout = 1 and glow.b_cols = N.
 * uint8 weights become int8, w - 128 with zero point - 128 (which must be
 * constant too), as the dot products want them signed. New constants are
 * created (the originals may be shared). */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

static int is_const(const glow_graph *g, int id) { return id >= 0 && g->vals[id].kind == GLOW_VAL_CONST; }

/* Whether a node's weights (input 3) and their zero point (input 5) can be packed. */
static int packable(const glow_graph *g, const glow_node *n) {
  int wid = n->in[3], zid = n->in[5];
  if (!is_const(g, wid) || (zid >= 0 && !is_const(g, zid)) || glow_attr_find(n, "glow.w_layout") ||
      glow_attr_find(n, "glow.b_layout"))
    return 0;
  return g->vals[wid].dt == GLOW_DT_I8 || g->vals[wid].dt == GLOW_DT_U8;
}

/* uint8 weights: their zero point (input 5) flipped to int8 as a new constant. */
static void flip_zero_point(glow_graph *g, int node_id) {
  glow_node *n = &g->nodes[node_id];
  int zid = n->in[5];
  const glow_value *z = zid >= 0 ? &g->vals[zid] : NULL;
  int64_t e = z ? glow_value_numel(z) : 1;
  int8_t *zd = glow_xmalloc((size_t)e);
  for (int64_t i = 0; i < e; i++)
    zd[i] = (int8_t)((z ? ((const uint8_t *)z->data)[i] : 0) ^ 0x80);
  int64_t zdims[1] = {z && z->rank ? z->dims[0] : 1};
  int nz = glow_value_add_derived(g, z ? zid : n->in[3], ".packed", GLOW_DT_I8, z ? z->rank : 0, zdims, zd);
  free(zd);
  g->nodes[node_id].in[5] = nz; /* QLinearConv and QLinearMatMul have at least 8 inputs (import checks) */
}

static void pack_conv(glow_graph *g, int node_id) {
  glow_node *n = &g->nodes[node_id];
  if (!packable(g, n))
    return;
  const glow_value *w = &g->vals[n->in[3]];
  if (w->rank < 3 || w->dims[1] < 3)
    return;
  int64_t m = w->dims[0], cg = w->dims[1], c4 = (cg + 3) / 4 * 4, taps = glow_value_numel(w) / (m * cg);
  int flip = w->dt == GLOW_DT_U8; /* to int8: w ^ 0x80 is w - 128 */
  int8_t *d = glow_xcalloc((size_t)(m * taps * c4), 1);
  const uint8_t *s = w->data;
  for (int64_t o = 0; o < m; o++)
    for (int64_t c = 0; c < cg; c++)
      for (int64_t t = 0; t < taps; t++)
        d[(o * taps + t) * c4 + c] = (int8_t)(s[(o * cg + c) * taps + t] ^ (flip ? 0x80 : 0));
  int64_t dims[GLOW_MAX_RANK];
  dims[0] = m;
  for (int i = 2; i < w->rank; i++)
    dims[i - 1] = w->dims[i];
  dims[w->rank - 1] = c4;
  int rank = w->rank, nw = glow_value_add_derived(g, n->in[3], ".packed", GLOW_DT_I8, rank, dims, d);
  free(d);
  g->nodes[node_id].in[3] = nw;
  if (flip)
    flip_zero_point(g, node_id);
  n = &g->nodes[node_id];
  glow_attr_add_int(n, "glow.w_layout", 1);
}

static void pack_matmul(glow_graph *g, int node_id) {
  glow_node *n = &g->nodes[node_id];
  if (!packable(g, n) || g->vals[n->in[3]].rank != 2)
    return;
  const glow_value *b = &g->vals[n->in[3]];
  /* Blocks of 16 columns, rounded up to whole tiles: the kernel's tiles read GLOW_QMM_TILE_BLOCKS
   * blocks at a time, the last one past N included (zeros, computed and not stored). */
  int64_t K = b->dims[0], N = b->dims[1], kq = (K + 3) / 4;
  int64_t nb = glow_qmm_packed_blocks(N);
  int flip = b->dt == GLOW_DT_U8;
  int8_t *d = glow_xcalloc((size_t)(nb * kq * 64), 1);
  const uint8_t *s = b->data;
  for (int64_t k = 0; k < K; k++)
    for (int64_t c = 0; c < N; c++)
      d[((c / 16) * kq + k / 4) * 64 + c % 16 * 4 + k % 4] = (int8_t)(s[k * N + c] ^ (flip ? 0x80 : 0));
  int64_t dims[3] = {nb, kq, 64};
  int nw = glow_value_add_derived(g, n->in[3], ".packed", GLOW_DT_I8, 3, dims, d);
  free(d);
  g->nodes[node_id].in[3] = nw;
  if (flip)
    flip_zero_point(g, node_id);
  n = &g->nodes[node_id];
  glow_attr_add_int(n, "glow.b_layout", 1);
  glow_attr_add_int(n, "glow.b_cols", N);
}

int glow_pass_pack_weights(glow_graph *g, const glow_pass_options *o) {
  int packed = 0;
  for (int i = 0; i < g->nnodes; i++) {
    if (g->nodes[i].dead)
      continue;
    if (g->nodes[i].op == GLOW_OP_QLINEAR_CONV)
      pack_conv(g, i);
    else if (g->nodes[i].op == GLOW_OP_QLINEAR_MAT_MUL)
      pack_matmul(g, i);
    packed += glow_attr_find(&g->nodes[i], "glow.w_layout") || glow_attr_find(&g->nodes[i], "glow.b_layout");
  }
  if (o->verbose && packed)
    glow_note("pack-weights: %d int8 weights laid out for the int8 kernels\n", packed);
  return 0;
}
