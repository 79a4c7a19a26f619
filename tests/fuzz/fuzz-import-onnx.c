/* Fuzz target: arbitrary bytes as an ONNX model, through import and the passes.
 * Must never crash, leak or read out of bounds; errors are expected. */
#include <stddef.h>
#include <stdint.h>

#include "glowc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  glow_set_quiet(1);
  glow_graph *g = glow_import_onnx_bytes(data, size, "fuzz.onnx", NULL);
  if (g) {
    glow_pass_options o = {0};
    glow_run_passes(g, &o, GLOW_PASS_GRAPH);
    glow_graph_free(g);
  }
  return 0;
}
