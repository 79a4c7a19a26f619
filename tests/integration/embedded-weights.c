/* -weights=embedded from a client's side: no weights file, the constant area is
 * <name>_constant_weights inside the object, the entry point is called with a NULL
 * constantWeight and still classifies the samples. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "digits.h"
#include "samples.h"

#ifndef DIGITS_CONSTANT_WEIGHTS_EMBEDDED
#error "digits.h does not say the weights are embedded"
#endif

GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) static uint8_t mutableWeight[DIGITS_MUTABLE_MEM_SIZE];
GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) static uint8_t activations[DIGITS_ACTIVATIONS_MEM_SIZE];

int main(void) {
  if ((uintptr_t)digits_constant_weights % DIGITS_MEM_ALIGN) {
    fprintf(stderr, "digits_constant_weights at %p is not %d-byte aligned\n", (const void *)digits_constant_weights,
            DIGITS_MEM_ALIGN);
    return 1;
  }
  float *in = (float *)GLOW_GET_ADDR(mutableWeight, DIGITS_input);
  const float *out = (const float *)GLOW_GET_ADDR(mutableWeight, DIGITS_output);
  for (int s = 0; s < 10; s++) {
    memcpy(in, glow_digits_samples[s], sizeof glow_digits_samples[s]);
    if (digits(NULL, mutableWeight, activations) != GLOW_SUCCESS) {
      fprintf(stderr, "bundle failed\n");
      return 1;
    }
    int best = 0;
    for (int k = 1; k < 10; k++)
      if (out[k] > out[best])
        best = k;
    printf("sample %d: predicted %d (label %d)\n", s, best, glow_digits_labels[s]);
  }
  return 0;
}
