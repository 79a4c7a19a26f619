/* require shapes; maintains order. Folds an inference BatchNormalization into
 * the Conv before it when the Conv's only use is the BatchNormalization and all
 * parameters are constant float32:
 *   s = scale / sqrt(var + eps),  W'[k] = W[k] * s[k],  b'[k] = (b[k] - mean[k]) * s[k] + B[k]
 * New constants are created (the originals may be shared). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

static int const_f32(const glow_graph *g, int id) {
  return id >= 0 && g->vals[id].kind == GLOW_VAL_CONST && g->vals[id].dt == GLOW_DT_F32;
}

static int fold(glow_graph *g, int conv_id, int bn_id) {
  glow_node *conv = &g->nodes[conv_id], *bn = &g->nodes[bn_id];
  for (int i = 1; i < 5; i++)
    if (!const_f32(g, bn->in[i]))
      return 0;
  if (!const_f32(g, conv->in[1]) || (conv->nin > 2 && conv->in[2] >= 0 && !const_f32(g, conv->in[2])))
    return 0;
  const glow_value *w = &g->vals[conv->in[1]];
  int64_t k = w->dims[0], per = glow_value_numel(w) / (k ? k : 1);
  if (glow_value_numel(&g->vals[bn->in[1]]) != k)
    return 0;
  const float *scale = g->vals[bn->in[1]].data, *shift = g->vals[bn->in[2]].data;
  const float *mean = g->vals[bn->in[3]].data, *var = g->vals[bn->in[4]].data;
  const float *bias = conv->nin > 2 && conv->in[2] >= 0 ? g->vals[conv->in[2]].data : NULL;
  double eps = glow_attr_float(bn, "epsilon", 1e-5);
  float *nw = glow_xmalloc(sizeof(float) * (size_t)glow_value_numel(w)), *nb = glow_xmalloc(sizeof(float) * (size_t)k);
  const float *ow = w->data;
  for (int64_t o = 0; o < k; o++) {
    double s = scale[o] / sqrt((double)var[o] + eps);
    for (int64_t j = 0; j < per; j++)
      nw[o * per + j] = (float)(ow[o * per + j] * s);
    nb[o] = (float)(((bias ? bias[o] : 0.0) - mean[o]) * s + shift[o]);
  }
  int64_t wdims[GLOW_MAX_RANK];
  memcpy(wdims, w->dims, sizeof wdims);
  int wrank = w->rank;
  int nwid = glow_value_add_derived(g, conv->in[1], ".bnfolded", GLOW_DT_F32, wrank, wdims, nw);
  int nbid = glow_value_add_derived(g, bn->in[2], ".bnfolded", GLOW_DT_F32, 1, &k, nb);
  free(nw);
  free(nb);
  conv = &g->nodes[conv_id]; /* glow_value_add does not move nodes, but keep it obvious */
  bn = &g->nodes[bn_id];
  if (conv->nin < 3) {
    conv->in = glow_xrealloc(conv->in, sizeof(int) * 3);
    conv->nin = 3;
  }
  conv->in[1] = nwid;
  conv->in[2] = nbid;
  g->vals[conv->out[0]].producer = -1;
  conv->out[0] = bn->out[0];
  g->vals[bn->out[0]].producer = conv_id;
  bn->dead = 1;
  return 1;
}

int glow_pass_fold_batchnorm(glow_graph *g, const glow_pass_options *o) {
  int *uses = glow_xcalloc((size_t)g->nvals, sizeof(int)), *user = glow_xcalloc((size_t)g->nvals, sizeof(int));
  for (int i = 0; i < g->nnodes; i++) {
    const glow_node *n = &g->nodes[i];
    for (int k = 0; !n->dead && k < n->nin; k++)
      if (n->in[k] >= 0) {
        uses[n->in[k]]++;
        user[n->in[k]] = i;
      }
  }
  int folded = 0;
  for (int i = 0; i < g->nnodes; i++) {
    glow_node *bn = &g->nodes[i];
    if (bn->dead || bn->op != GLOW_OP_BATCH_NORMALIZATION || bn->nout != 1 || bn->nin != 5)
      continue;
    int x = bn->in[0];
    if (x < 0 || g->vals[x].is_output || uses[x] != 1 || user[x] != i || g->vals[x].producer < 0)
      continue;
    int p = g->vals[x].producer;
    if (g->nodes[p].op == GLOW_OP_CONV && !g->nodes[p].dead && g->nodes[p].out[0] == x)
      folded += fold(g, p, i);
  }
  free(uses);
  free(user);
  if (o->verbose && folded)
    glow_note("fold-batchnorm: folded %d BatchNormalization nodes into convolutions\n", folded);
  return 0;
}
