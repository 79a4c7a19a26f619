/* -entry: the bundle's areas laid out for all its entries, and the union of the entries that
 * the header, the dynamic API's config and the weights files are written from. Glow's
 * BundleSaver does the same for a module's functions: a weight variable each in the constant
 * and mutable areas, one activations area sized for the function needing most. */
#include <stdlib.h>
#include <string.h>

#include "codegen/symbol-names.h"
#include "codegen/tensor-quant.h"
#include "driver/compile-entries.h"

static int symbol_id(const glow_graph *g, int k) { return k < g->ninputs ? g->inputs[k] : g->outputs[k - g->ninputs]; }

static const char *role(const glow_graph *g, int k) { return k < g->ninputs ? "an input" : "an output"; }

int glow_entries_check_names(const glow_entry *e, int n) {
  int rc = 0;
  for (int j = 1; j < n; j++)
    for (int k = 0; k < e[j].g->ninputs + e[j].g->noutputs; k++) {
      const char *name = e[j].g->vals[symbol_id(e[j].g, k)].name;
      for (int i = 0; i < j; i++)
        for (int l = 0; l < e[i].g->ninputs + e[i].g->noutputs; l++) {
          if (strcmp(e[i].g->vals[symbol_id(e[i].g, l)].name, name))
            continue;
          glow_error(e[j].model, "'%s' is %s of entry '%s' and %s of entry '%s' (%s): the bundle's one symbol table "
                     "would hold two tensors of that name; rename it in one of the models (%s)",
                     name, role(e[j].g, k), e[j].name, role(e[i].g, l), e[i].name, e[i].model,
                     glow_tflite_file(e[j].model) ? "a .tflite model's tensor names are the converter's: rename them "
                     "in the model you convert" : "onnx.compose.add_prefix renames all of a model's tensors");
          rc = -1;
        }
    }
  return rc;
}

static uint64_t align_up(uint64_t v) { return (v + GLOW_ALIGN - 1) / GLOW_ALIGN * GLOW_ALIGN; }

void glow_entries_layout(glow_entry *e, int n) {
  uint64_t const_end = 0, mutable_end = 0, act = 0, act_low = 0;
  for (int k = 0; k < n; k++) {
    glow_plan *p = &e[k].plan;
    uint64_t cbase = align_up(const_end), mbase = align_up(mutable_end);
    for (int i = 0; i < e[k].g->nvals; i++)
      p->offset[i] += p->area[i] == 1 ? cbase : p->area[i] == 2 ? mbase : 0;
    const_end = cbase + p->const_size;
    mutable_end = mbase + p->mutable_size;
    act = p->act_size > act ? p->act_size : act;
    act_low = p->act_lower_bound > act_low ? p->act_lower_bound : act_low;
  }
  for (int k = 0; k < n; k++) {
    e[k].plan.const_size = const_end;
    e[k].plan.mutable_size = mutable_end;
    e[k].plan.act_size = act;
    e[k].plan.act_lower_bound = act_low;
  }
}

void glow_entries_union(const glow_entry *e, int n, glow_graph *u, glow_plan *up) {
  memset(u, 0, sizeof *u);
  memset(up, 0, sizeof *up);
  for (int k = 0; k < n; k++) {
    u->nvals += e[k].g->nvals;
    u->ninputs += e[k].g->ninputs;
    u->noutputs += e[k].g->noutputs;
  }
  u->capvals = u->nvals;
  u->vals = glow_xmalloc(sizeof *u->vals * (size_t)(u->nvals ? u->nvals : 1));
  u->inputs = glow_xmalloc(sizeof *u->inputs * (size_t)(u->ninputs ? u->ninputs : 1));
  u->outputs = glow_xmalloc(sizeof *u->outputs * (size_t)(u->noutputs ? u->noutputs : 1));
  up->offset = glow_xmalloc(sizeof *up->offset * (size_t)(u->nvals ? u->nvals : 1));
  up->area = glow_xmalloc(sizeof *up->area * (size_t)(u->nvals ? u->nvals : 1));
  int base = 0, ni = 0, no = 0;
  for (int k = 0; k < n; k++) {
    const glow_graph *g = e[k].g;
    memcpy(u->vals + base, g->vals, sizeof *g->vals * (size_t)g->nvals);
    memcpy(up->offset + base, e[k].plan.offset, sizeof *up->offset * (size_t)g->nvals);
    memcpy(up->area + base, e[k].plan.area, sizeof *up->area * (size_t)g->nvals);
    for (int i = 0; i < g->ninputs; i++)
      u->inputs[ni++] = base + g->inputs[i];
    for (int i = 0; i < g->noutputs; i++) { /* the union has no nodes: each output's quantization now */
      double scale;
      int64_t zero;
      u->outputs[no++] = base + g->outputs[i];
      if (glow_value_quant(g, g->outputs[i], &scale, &zero)) {
        u->vals[base + g->outputs[i]].qscale = (float)scale;
        u->vals[base + g->outputs[i]].qoffset = (int32_t)zero;
      }
    }
    base += g->nvals;
  }
  up->const_size = e[0].plan.const_size;
  up->mutable_size = e[0].plan.mutable_size;
  up->act_size = e[0].plan.act_size;
  up->act_lower_bound = e[0].plan.act_lower_bound;
}

void glow_entries_union_free(glow_graph *u, glow_plan *up) {
  free(u->vals);
  free(u->inputs);
  free(u->outputs);
  free(up->offset);
  free(up->area);
}

/* "inputs a, b; outputs c": the entry's symbols, from the union's names (its inputs from
 * sym[in], its outputs from sym[out]). */
static void list_symbols(glow_strbuf *b, const glow_graph *g, char *const *sym, int in, int out) {
  glow_sb_printf(b, "%s", g->ninputs == 1 ? "input" : g->ninputs ? "inputs" : "no inputs");
  for (int i = 0; i < g->ninputs; i++)
    glow_sb_printf(b, "%s %s", i ? "," : "", sym[in + i]);
  glow_sb_printf(b, "; %s", g->noutputs == 1 ? "output" : g->noutputs ? "outputs" : "no outputs");
  for (int i = 0; i < g->noutputs; i++)
    glow_sb_printf(b, "%s %s", i ? "," : "", sym[out + i]);
  glow_sb_printf(b, "\n");
}

void glow_entries_note(const glow_entry *e, int n, const glow_graph *u, glow_strbuf *out) {
  char **sym = glow_symbol_names(u);
  glow_sb_printf(out, "//\n// Entries: %d functions, declared at the end, over one set of the three areas:\n", n);
  int in = 0, o = u->ninputs;
  for (int k = 0; k < n; k++) {
    glow_sb_printf(out, "//   %s: ", e[k].name);
    list_symbols(out, e[k].g, sym, in, o);
    in += e[k].g->ninputs;
    o += e[k].g->noutputs;
  }
  glow_sb_printf(out,
                 "// Each entry has its weights in the constant area (one weights file for all) and its inputs\n"
                 "// and outputs at offsets of their own in the mutable area; the activations area is shared,\n"
                 "// sized for the entry needing most. As with Glow's bundles of several entries, run one\n"
                 "// entry at a time on one set of areas: entries running at the same time each need an\n"
                 "// activations area of their own (and two runs of one entry a mutable area each too).\n");
  glow_symbol_names_free(sym, u->ninputs + u->noutputs);
}
