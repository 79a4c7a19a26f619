/* The pass pipeline: a plain list of calls, verified between passes in debug builds. */
#include <string.h>

#include "glowc.h"
#include "quant/quant.h"

static int run(glow_graph *g, const glow_pass_options *o, const char *name,
               int (*pass)(glow_graph *, const glow_pass_options *)) {
  if (pass(g, o))
    return -1;
#ifndef NDEBUG
  if (glow_graph_verify(g))
    return -1;
#endif
  if (o->dump_after && !strcmp(o->dump_after, name)) {
    fprintf(stderr, "; IR after %s\n", name);
    glow_graph_dump(g, stderr);
  }
  return 0;
}

int glow_run_passes(glow_graph *g, const glow_pass_options *o) {
  if (run(g, o, "infer-fold", glow_pass_infer_fold))
    return -1;
  if (run(g, o, "fold-batchnorm", glow_pass_fold_batchnorm))
    return -1;
  if (run(g, o, "fold-qdq", glow_pass_fold_qdq))
    return -1;
  if (run(g, o, "materialize-outputs", glow_pass_materialize_outputs))
    return -1;
  if (run(g, o, "pack-weights", glow_pass_pack_weights))
    return -1;
  if (run(g, o, "dead-nodes", glow_pass_dead_nodes))
    return -1;
  return 0;
}
