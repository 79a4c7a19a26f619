/* require shapes; maintains order. Lays the constant int8 weights of
 * QLinearConv out as the int8 kernels read them (kernels/qconv.c):
 *   W[M][C/G][K1..] becomes W'[M][K1..][C4], C4 = C/G rounded up to 4 and
 *   zero padded, so the 4 input channels of one tap are one 32-bit word, a
 *   step of a u8 x s8 dot product; the node gets glow.w_layout = 1;
 *   uint8 weights become int8, w - 128 with w_zero_point - 128 (the zero point
 *   must be constant too), as the dot products want them signed.
 * Only where the padding adds at most a third (C/G >= 3). New constants are
 * created (the originals may be shared). */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

static int is_const(const glow_graph *g, int id) { return id >= 0 && g->vals[id].kind == GLOW_VAL_CONST; }

static int new_const(glow_graph *g, const char *base, glow_dtype dt, int rank, const int64_t *dims, const void *data) {
  char name[512];
  snprintf(name, sizeof name, "%s.packed", base);
  int id = glow_value_add(g, name);
  glow_value_make_const(g, id, dt, rank, dims, data);
  return id;
}

static void set_int_attr(glow_node *n, const char *name, int64_t v) {
  n->attrs = glow_xrealloc(n->attrs, sizeof *n->attrs * (size_t)(n->nattr + 1));
  glow_attr *a = &n->attrs[n->nattr++];
  memset(a, 0, sizeof *a);
  a->name = glow_xstrdup(name);
  a->type = GLOW_ATTR_INT;
  a->i = v;
}

static void pack_conv(glow_graph *g, int node_id) {
  glow_node *n = &g->nodes[node_id];
  int wid = n->in[3], zid = n->nin > 5 ? n->in[5] : -1;
  if (!is_const(g, wid) || (zid >= 0 && !is_const(g, zid)) || glow_attr_find(n, "glow.w_layout"))
    return;
  const glow_value *w = &g->vals[wid];
  if ((w->dt != GLOW_DT_I8 && w->dt != GLOW_DT_U8) || w->rank < 3 || w->dims[1] < 3)
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
  int rank = w->rank, nw = new_const(g, w->name, GLOW_DT_I8, rank, dims, d);
  free(d);
  n = &g->nodes[node_id];
  n->in[3] = nw;
  if (flip) {
    const glow_value *z = zid >= 0 ? &g->vals[zid] : NULL;
    int64_t e = z ? glow_value_numel(z) : 1;
    int8_t *zd = glow_xmalloc((size_t)e);
    for (int64_t i = 0; i < e; i++)
      zd[i] = (int8_t)((z ? ((const uint8_t *)z->data)[i] : 0) ^ 0x80);
    int zr = z ? z->rank : 0;
    int64_t zdims[1] = {z && z->rank ? z->dims[0] : 1};
    int nz = new_const(g, z ? z->name : w->name, GLOW_DT_I8, zr, zdims, zd);
    free(zd);
    n = &g->nodes[node_id];
    n->in[5] = nz; /* QLinearConv has at least 8 inputs (import checks) */
  }
  set_int_attr(n, "glow.w_layout", 1);
}

int glow_pass_pack_weights(glow_graph *g, const glow_pass_options *o) {
  int packed = 0;
  for (int i = 0; i < g->nnodes; i++)
    if (!g->nodes[i].dead && g->nodes[i].op == GLOW_OP_QLINEAR_CONV) {
      pack_conv(g, i);
      packed += glow_attr_find(&g->nodes[i], "glow.w_layout") != NULL;
    }
  if (o->verbose && packed)
    glow_note("pack-weights: %d int8 convolution weights laid out channels-last\n", packed);
  return 0;
}
