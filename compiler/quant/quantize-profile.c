/* require shapes (the graph the profile was taken from: after the graph stage); maintains
 * order. The quant stage's first pass (passes/pipeline.c), with -load-profile: the
 * profile (o->quant->profile_path) read and checked against the graph, then the graph
 * quantized from it (quant/quantize.c). fold-lookup, pack-weights, dead-nodes and
 * assert-quantized follow it in the stage. */
#include <stdlib.h>
#include <string.h>

#include "quant/quant.h"

static glow_profile_entry *find_entry(glow_profile *p, const char *name) {
  for (int i = 0; i < p->nentries; i++)
    if (!strcmp(p->entries[i].name, name))
      return &p->entries[i];
  return NULL;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const glow_profile_entry *)a)->name, ((const glow_profile_entry *)b)->name);
}

/* An input given a quantized type (-model-input=x,int8q,<scale>,<offset>,...) enters the float
 * graph through its DequantizeLinear, whose output "<x>.dequantized" a profile of the float model
 * knows as "x:0": that entry is renamed. Either way the value's range becomes exactly what the
 * input's type holds at its scale and offset (one bin: calibration leaves it whole), so the
 * quantized graph reads the input with its own parameters. */
static void profile_quantized_inputs(glow_profile *p, const glow_graph *g) {
  for (int k = 0; k < g->ninputs; k++) {
    const glow_value *x = &g->vals[g->inputs[k]];
    if (!x->qscale)
      continue;
    const glow_node *dq = NULL;
    for (int i = 0; i < g->nnodes && !dq; i++)
      if (!g->nodes[i].dead && g->nodes[i].op == GLOW_OP_DEQUANTIZE_LINEAR && g->nodes[i].nin > 0 &&
          g->nodes[i].in[0] == g->inputs[k])
        dq = &g->nodes[i];
    if (!dq || dq->out[0] < 0)
      continue;
    char want[512], given[512];
    snprintf(want, sizeof want, "%s:0", g->vals[dq->out[0]].name);
    snprintf(given, sizeof given, "%s:0", x->name);
    glow_profile_entry *e = find_entry(p, want);
    if (!e && (e = find_entry(p, given))) {
      free(e->name);
      e->name = glow_xstrdup(want);
      qsort(p->entries, (size_t)p->nentries, sizeof *p->entries, by_name);
      e = find_entry(p, want);
      p->has_hash = 0; /* it hashed the float twin's graph, not this one with its DequantizeLinear */
    }
    if (!e)
      continue; /* the profile check names it */
    double lo = x->dt == GLOW_DT_I8 ? -128.0 : x->dt == GLOW_DT_I16 ? -32768.0 : -2147483648.0;
    double hi = x->dt == GLOW_DT_I8 ? 127.0 : x->dt == GLOW_DT_I16 ? 32767.0 : 2147483647.0;
    e->min = (float)((lo - x->qoffset) * x->qscale);
    e->max = (float)((hi - x->qoffset) * x->qscale);
    free(e->hist);
    e->nbins = 1;
    e->hist = glow_xcalloc(1, sizeof *e->hist);
    e->hist[0] = 1;
  }
}

int glow_pass_quantize_profile(glow_graph *g, const glow_pass_options *o) {
  const glow_quant_options *q = o->quant;
  glow_profile *p = glow_profile_load(q->profile_path);
  if (p && glow_profile_is_glows(p)) { /* Glow's node names to glowc's value names */
    glow_profile *named = glow_profile_from_glow(p, g, q->profile_path, q->verbose);
    glow_profile_free(p);
    p = named;
  }
  if (p)
    profile_quantized_inputs(p, g);
  int rc = !p || glow_profile_check(p, g, q->profile_path) || glow_pass_quantize(g, p, q);
  glow_profile_free(p);
  return rc ? -1 : 0;
}
