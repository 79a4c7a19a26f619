/* Fuzz target: arbitrary bytes as a .tflite model, through import and the
 * passes (the seeds in corpus/import-tflite are written by
 * tests/tflite/make-tflite.py). Must never crash, leak, hang or read out of
 * bounds; errors are expected. */
#include <stddef.h>
#include <stdint.h>

#include "glowc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  glow_set_quiet(1);
  glow_graph *g = glow_import_tflite_bytes(data, size, "fuzz.tflite", NULL);
  if (g) {
    glow_pass_options o = {0};
    glow_run_passes(g, &o, GLOW_PASS_GRAPH);
    glow_graph_free(g);
  }
  return 0;
}
