/* Fuzz target: arbitrary bytes as a compile-cache entry (they come from disk or
 * an HTTP server). An entry that decodes must encode back to the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  glow_cache_entry e;
  if (glow_cache_entry_decode(data, size, &e))
    return 0;
  glow_strbuf again = {0};
  glow_cache_entry_encode(e.files, e.nfiles, &again);
  GLOW_ASSERT(again.len == size && !memcmp(again.s, data, size));
  glow_sb_free(&again);
  return 0;
}
