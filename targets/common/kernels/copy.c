/* Byte copy: Identity, Reshape, Flatten and outputs that alias other values. */
#include "kernel.h"

/* t: out, in; p: glow_abi_count (n bytes) */
GLOW_KERNEL(copy) {
  uint8_t *o = t[0];
  const uint8_t *i = t[1];
  const glow_abi_count *a = (const glow_abi_count *)p;
  for (int64_t k = 0; k < a->n; k++)
    o[k] = i[k];
}
