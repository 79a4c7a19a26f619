/* Prints quant_io_tensor_info, one line per input and output, as check-tensor-quant.sh expects:
 * "<name> role <1|2> dtype <n> rank <r> scale <%.9g> offset <n>"; built against the bundle's
 * header, so it also checks that struct GlowTensorInfo and the bundle's array agree in size. */
#include <stdio.h>

#include "quant_io.h"

int main(void) {
  for (uint64_t i = 0; i < quant_io_config.numSymbols; i++) {
    const struct GlowTensorInfo *t = &quant_io_tensor_info[i];
    printf("%s role %llu dtype %llu rank %llu scale %.9g offset %lld\n", t->name, (unsigned long long)t->role,
           (unsigned long long)t->dtype, (unsigned long long)t->rank, t->scale, (long long)t->offset);
  }
  return 0;
}
