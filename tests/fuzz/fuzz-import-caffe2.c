/* Fuzz target: arbitrary bytes as a Caffe2 model, through import and the
 * passes: a 4-byte little-endian length, that many bytes of predict_net, the
 * rest init_net (the seed, caffe2.seed, is written by tests/caffe2/badinput.py
 * --fuzz-seed). Must never crash, leak or read out of bounds; errors are
 * expected. */
#include <stddef.h>
#include <stdint.h>

#include "glowc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4)
    return 0;
  size_t n = (size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16 | (size_t)data[3] << 24;
  if (n > size - 4)
    n = size - 4;
  static const char *names[] = {"data"};
  static glow_dtype types[] = {GLOW_DT_F32};
  static int ranks[] = {4};
  static int64_t dims[][GLOW_MAX_RANK] = {{1, 4, 8, 8}};
  const glow_import_options o = {.ninputs = 1, .input_names = names, .input_types = types, .input_ranks = ranks,
                                 .input_dims = dims};
  glow_set_quiet(1);
  glow_graph *g = glow_import_caffe2_bytes(data + 4, n, data + 4 + n, size - 4 - n, "predict_net.pb", "init_net.pb", &o);
  if (g) {
    glow_pass_options po = {0};
    glow_run_passes(g, &po, GLOW_PASS_GRAPH);
    glow_graph_free(g);
  }
  return 0;
}
