// The static bundle API from C++, the way Glow's own examples use it: memory
// sized by the header's macros, weights compiled in from <name>.weights.txt,
// inputs and outputs addressed through GLOW_GET_ADDR and the offset macros.
// Prints one prediction per sample image, like the dynamic-API example.
#include <cstdio>
#include <cstring>

#include "digits.h"
#include "samples.h"

GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN)
static uint8_t constantWeight[DIGITS_CONSTANT_MEM_SIZE] = {
#include "digits.weights.txt"
};
GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) static uint8_t mutableWeight[DIGITS_MUTABLE_MEM_SIZE];
GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) static uint8_t activations[DIGITS_ACTIVATIONS_MEM_SIZE];

int main() {
  float *in = reinterpret_cast<float *>(GLOW_GET_ADDR(mutableWeight, DIGITS_input));
  const float *out = reinterpret_cast<const float *>(GLOW_GET_ADDR(mutableWeight, DIGITS_output));
  for (int s = 0; s < 10; s++) {
    std::memcpy(in, glow_digits_samples[s], sizeof glow_digits_samples[s]);
    if (digits(constantWeight, mutableWeight, activations) != GLOW_SUCCESS) {
      std::fprintf(stderr, "bundle failed\n");
      return 1;
    }
    int best = 0;
    for (int k = 1; k < 10; k++)
      if (out[k] > out[best])
        best = k;
    std::printf("sample %d: predicted %d (label %d)\n", s, best, glow_digits_labels[s]);
  }
  return 0;
}
