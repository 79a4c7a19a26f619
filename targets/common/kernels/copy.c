/* Byte copy: Identity, Reshape, Flatten and outputs that alias other values. */
#include "kernel.h"

/* t: out, in; p: nbytes */
GLOW_KERNEL(copy) {
  uint8_t *o = t[0];
  const uint8_t *i = t[1];
  for (int64_t k = 0; k < p[0]; k++)
    o[k] = i[k];
}
