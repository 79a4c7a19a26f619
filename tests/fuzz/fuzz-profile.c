/* Fuzz target: arbitrary bytes as a quantization profile (YAML); whatever
 * parses is written back out. */
#include <stddef.h>
#include <stdint.h>

#include "quant/quant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  glow_set_quiet(1);
  glow_profile *p = glow_profile_parse(data, size, "fuzz.yml");
  if (p) {
    glow_strbuf b = {0};
    glow_profile_emit(p, &b);
    glow_sb_free(&b);
  }
  glow_profile_free(p);
  return 0;
}
