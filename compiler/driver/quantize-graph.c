/* -load-profile (model-compiler, image-classifier): the profile checked against the graph
 * it was taken from (after the passes), then the graph quantized, its int8 weights packed
 * and the float leftovers dropped (and, with -assert-all-nodes-quantized, no float node
 * left but those the user kept). */
#include <string.h>

#include "driver/driver.h"

int glow_driver_quantize(glow_graph *g, const glow_driver_options *d) {
  glow_profile *p = glow_profile_load(d->load_profile);
  if (p && glow_profile_is_glows(p)) { /* Glow's node names to glowc's value names */
    glow_profile *named = glow_profile_from_glow(p, g, d->load_profile, d->verbose);
    glow_profile_free(p);
    p = named;
  }
  glow_quant_options q = d->quant;
  q.profile_path = d->load_profile;
  q.verbose = d->verbose;
  int rc = !p || glow_profile_check(p, g, d->load_profile) || glow_pass_quantize(g, p, &q) ||
           glow_pass_pack_weights(g, &d->passes) || glow_pass_dead_nodes(g, &d->passes) || glow_graph_verify(g) ||
           (d->assert_quantized && glow_quant_assert_all(g, &q, d->model));
  glow_profile_free(p);
  if (!rc && d->passes.dump_after && !strcmp(d->passes.dump_after, "quantize")) {
    fprintf(stderr, "; IR after quantize\n");
    glow_graph_dump(g, stderr);
  }
  return rc ? -1 : 0;
}
