/* The targets this toolchain was built with (targets/CMakeLists.txt's GLOWC_TARGETS). */
#include <string.h>

#include "target.h"

extern const glow_target glow_target_x86_64, glow_target_aarch64, glow_target_riscv64, glow_target_armv7em,
    glow_target_armv6m, glow_target_armv8m, glow_target_armv81m, glow_target_armv7, glow_target_cuda;

const glow_target *const glow_targets[] = {&glow_target_x86_64,  &glow_target_aarch64, &glow_target_riscv64,
                                           &glow_target_armv7em, &glow_target_armv6m,  &glow_target_armv8m,
                                           &glow_target_armv81m, &glow_target_armv7,   &glow_target_cuda};
const int glow_ntargets = sizeof glow_targets / sizeof glow_targets[0];

const glow_target *glow_target_for_triple(const char *triple) {
  size_t n = strcspn(triple, "-");
  for (int i = 0; i < glow_ntargets; i++)
    for (const char *const *a = glow_targets[i]->arches; *a; a++)
      if (strlen(*a) == n && !strncmp(*a, triple, n))
        return glow_targets[i];
  return NULL;
}
