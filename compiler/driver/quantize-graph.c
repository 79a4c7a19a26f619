/* -load-profile (model-compiler, image-classifier): the profile checked against the graph
 * it was taken from (after the passes), then the graph quantized, its int8 weights packed
 * and the float leftovers dropped (and, with -assert-all-nodes-quantized, no float node
 * left but those the user kept). */
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"

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

int glow_driver_quantize(glow_graph *g, const glow_driver_options *d) {
  glow_profile *p = glow_profile_load(d->load_profile);
  if (p && glow_profile_is_glows(p)) { /* Glow's node names to glowc's value names */
    glow_profile *named = glow_profile_from_glow(p, g, d->load_profile, d->verbose);
    glow_profile_free(p);
    p = named;
  }
  if (p)
    profile_quantized_inputs(p, g);
  glow_quant_options q = d->quant;
  q.profile_path = d->load_profile;
  q.verbose = d->verbose;
  int rc = !p || glow_profile_check(p, g, d->load_profile) || glow_pass_quantize(g, p, &q) ||
           (!glow_pass_disabled(&d->passes, "fold-lookup") && glow_pass_fold_lookup(g, &d->passes)) ||
           glow_pass_pack_weights(g, &d->passes) || glow_pass_dead_nodes(g, &d->passes) || glow_graph_verify(g) ||
           (d->assert_quantized && glow_quant_assert_all(g, &q, d->model));
  glow_profile_free(p);
  if (!rc && d->passes.dump_after && !strcmp(d->passes.dump_after, "quantize")) {
    fprintf(stderr, "; IR after quantize\n");
    glow_graph_dump(g, stderr);
  }
  return rc ? -1 : 0;
}
