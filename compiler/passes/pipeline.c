/* The pass pipeline: the registry of glowc's passes in the order they run (the
 * order is fixed, so bundles do not depend on how options were written), each
 * verified after it in debug builds. Three stages: graph (every import, the
 * profiler's too), quant (with -load-profile: the profile travels in
 * glow_pass_options.quant) and codegen (when compiling). -disable-pass turns off
 * the ones that only optimize; -print-passes lists them all. */
#include <string.h>

#include "glowc.h"
#include "quant/quant.h"

const glow_pass_info glow_passes[] = {
    {"infer-fold", GLOW_PASS_GRAPH, 1, glow_pass_infer_fold,
     "shapes and dtypes of every value; constant subgraphs evaluated"},
    {"fold-batchnorm", GLOW_PASS_GRAPH, 0, glow_pass_fold_batchnorm,
     "BatchNormalization after a Conv folded into its weights and bias"},
    {"fold-qdq", GLOW_PASS_GRAPH, 0, glow_pass_fold_qdq,
     "QuantizeLinear/DequantizeLinear pairs around float ops become int8 ops"},
    {"plugin-passes", GLOW_PASS_GRAPH, 0, NULL, "the passes of -load-pass plugins run here (-pass picks them)"},
    {"fold-lookup", GLOW_PASS_GRAPH, 0, glow_pass_fold_lookup,
     "int8 activations (and x times them) become 256-byte tables"},
    {"materialize-outputs", GLOW_PASS_GRAPH, 1, glow_pass_materialize_outputs,
     "graph outputs that are inputs or constants get a copy in the output area"},
    {"pack-weights", GLOW_PASS_GRAPH, 1, glow_pass_pack_weights,
     "constant int8 weights in the int8 kernels' layout"},
    {"dead-nodes", GLOW_PASS_GRAPH, 0, glow_pass_dead_nodes, "nodes whose results nothing uses removed"},
    {"quantize", GLOW_PASS_QUANT, 1, glow_pass_quantize_profile,
     "the -load-profile profile checked against the graph, float ops made int8 from it"},
    {"fold-lookup", GLOW_PASS_QUANT, 0, glow_pass_fold_lookup, "the activations quantize made become tables"},
    {"pack-weights", GLOW_PASS_QUANT, 1, glow_pass_pack_weights,
     "the weights quantize made in the int8 kernels' layout"},
    {"dead-nodes", GLOW_PASS_QUANT, 1, glow_pass_dead_nodes, "the float weights and ops quantize replaced removed"},
    {"assert-quantized", GLOW_PASS_QUANT, 1, glow_pass_assert_quantized,
     "the quantized graph verified (and -assert-all-nodes-quantized checked)"},
    {"fuse-epilogue", GLOW_PASS_CODEGEN, 0, glow_pass_fuse_epilogue,
     "activations and residual adds after a float32 Conv run in its epilogue"},
    {"winograd", GLOW_PASS_CODEGEN, 0, glow_pass_winograd,
     "float32 3x3 convs on planes of 14 x 14 or more (20 x 20: Zen 5) run by Winograd F(4x4, 3x3)"},
    {"pack-conv-weights", GLOW_PASS_CODEGEN, 0, glow_pass_pack_conv_weights,
     "constant float32 Conv weights in the conv kernel's panels"},
    {"fuse-conv-pool", GLOW_PASS_CODEGEN, 0, glow_pass_fuse_conv_pool,
     "a packed float32 Conv and the MaxPool after it run as one step (the conv's output stays in cache)"},
    {"dead-nodes", GLOW_PASS_CODEGEN, 0, glow_pass_dead_nodes, "nodes left unused by the fusions removed"},
};
const int glow_npasses = sizeof glow_passes / sizeof glow_passes[0];

int glow_pass_disabled(const glow_pass_options *o, const char *name) {
  for (int i = 0; i < o->ndisabled; i++)
    if (!strcmp(o->disabled[i], name))
      return 1;
  return 0;
}

static void dump_after(const glow_graph *g, const char *name) {
  fprintf(stderr, "; IR after %s\n", name);
  glow_graph_dump(g, stderr);
}

int glow_run_passes(glow_graph *g, const glow_pass_options *o, glow_pass_stage stage) {
  if (stage == GLOW_PASS_QUANT && !o->quant)
    return 0; /* no profile: nothing to quantize */
  for (int i = 0; i < glow_npasses; i++) {
    const glow_pass_info *p = &glow_passes[i];
    if (p->stage != stage || (!p->required && glow_pass_disabled(o, p->name)))
      continue;
    if (!p->run) {
      if (glow_run_plugin_passes(g, o))
        return -1;
      continue;
    }
    if (p->run(g, o))
      return -1;
#ifndef NDEBUG
    if (glow_graph_verify(g))
      return -1;
#endif
    /* -dump-after=quantize: the graph the whole quant stage leaves (below) */
    if (o->dump_after && !strcmp(o->dump_after, p->name) && (stage != GLOW_PASS_QUANT || strcmp(p->name, "quantize")))
      dump_after(g, p->name);
  }
  if (stage == GLOW_PASS_QUANT && o->dump_after && !strcmp(o->dump_after, "quantize"))
    dump_after(g, "quantize");
  return 0;
}

int glow_check_disabled_passes(const glow_pass_options *o) {
  int bad = 0;
  for (int i = 0; i < o->ndisabled; i++) {
    const glow_pass_info *p = NULL;
    for (int k = 0; k < glow_npasses && !p; k++)
      if (glow_passes[k].run && !strcmp(glow_passes[k].name, o->disabled[i]))
        p = &glow_passes[k];
    if (!p) {
      glow_error("-disable-pass", "no pass '%s' (model-compiler -print-passes lists them)", o->disabled[i]);
      bad = 1;
    } else if (p->required) {
      glow_error("-disable-pass", "'%s' cannot be disabled: %s, which code generation needs", p->name, p->what);
      bad = 1;
    }
  }
  return bad ? -1 : 0;
}

void glow_print_passes(FILE *f, const glow_plugins *plugins) {
  static const char *const stages[] = {"graph", "quant", "codegen"};
  fprintf(f, "Passes, in the order they run (-disable-pass=<name> turns off those marked optional):\n");
  for (int i = 0; i < glow_npasses; i++) {
    const glow_pass_info *p = &glow_passes[i];
    if (!p->run && plugins) {
      glow_print_plugin_passes(f, plugins);
      continue;
    }
    fprintf(f, "  %-20s %-9s %-8s %s\n", p->run ? p->name : "(plugins)", stages[p->stage],
            p->required ? "required" : p->run ? "optional" : "", p->what);
  }
}
