/* Fuzz target: arbitrary bytes as a quantization profile (YAML); whatever
 * parses is written back out, and read as a Glow-written profile of the digits
 * CNN (GLOWC_FUZZ_MODEL), whose values are sought under Glow's node names. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "quant/quant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static glow_graph *digits(void) {
  static glow_graph *g;
  if (!g) {
    glow_import_options io;
    memset(&io, 0, sizeof io);
    glow_pass_options po = {0};
    g = glow_import_onnx(GLOWC_FUZZ_MODEL, &io);
    if (!g || glow_run_passes(g, &po, GLOW_PASS_GRAPH))
      __builtin_trap(); /* the fuzz target itself is broken */
  }
  return g;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  glow_set_quiet(1);
  glow_profile *p = glow_profile_parse(data, size, "fuzz.yml");
  if (p) {
    glow_strbuf b = {0};
    glow_profile_emit(p, &b);
    glow_sb_free(&b);
    glow_profile_free(glow_profile_from_glow(p, digits(), "fuzz.yml", 0));
  }
  glow_profile_free(p);
  return 0;
}
