/* The targets this toolchain was built with. */
#include <string.h>

#include "target.h"

extern const glow_target glow_target_x86_64;

const glow_target *const glow_targets[] = {&glow_target_x86_64};
const int glow_ntargets = sizeof glow_targets / sizeof glow_targets[0];

const glow_target *glow_target_for_triple(const char *triple) {
  size_t n = strcspn(triple, "-");
  for (int i = 0; i < glow_ntargets; i++)
    if (strlen(glow_targets[i]->arch) == n && !strncmp(glow_targets[i]->arch, triple, n))
      return glow_targets[i];
  return NULL;
}
