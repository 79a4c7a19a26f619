/* Fuzz target: arbitrary bytes as a compile-cache entry (they come from disk or
 * an HTTP server). An entry that decodes must encode back to the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/cache-entry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The key of cache-entry.seed and the corpus: an entry for any other key is refused. */
#define FUZZ_KEY "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  glow_cache_entry e;
  if (glow_cache_entry_decode(data, size, FUZZ_KEY, &e))
    return 0;
  glow_strbuf again = {0};
  glow_cache_entry_encode(FUZZ_KEY, e.files, e.nfiles, &again);
  GLOW_ASSERT(again.len == size && !memcmp(again.s, data, size));
  glow_sb_free(&again);
  return 0;
}
