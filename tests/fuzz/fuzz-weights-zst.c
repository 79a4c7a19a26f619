/* Fuzz target: arbitrary bytes as packed weights (.weights.zst) for the
 * runtime's loader, from memory, for a bundle of the size the bytes declare
 * (up to 16 MiB), so that mutations get past the size check. */
#include <stddef.h>
#include <stdint.h>

#include "glow-runtime.h"
#include "weights-zst-format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  glow_wzst_header h = {0};
  uint64_t raw = 4096;
  if (size >= GLOW_WZST_HEADER_SIZE && !glow_wzst_header_read(data, &h) && h.raw_size <= (16u << 20))
    raw = h.raw_size;
  struct BundleConfig cfg = {raw, 0, 0, 64, 0, NULL};
  glow_bundle b = {"fuzz", &cfg, NULL, NULL};
  glow_weights *w = NULL;
  if (glow_weights_unpack(&b, data, size, &w) == GLOW_RT_OK)
    glow_weights_free(w);
  return 0;
}
