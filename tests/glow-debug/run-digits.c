/* Runs the digits bundle (static API) once: run-digits <digits.weights.bin> <output file>.
 * The input is a fixed ramp; the output's bytes go to the file, for the -g and
 * -instrument-debug tests (tests/glow-debug/check-glow-debug.py). */
#include <stdio.h>
#include <stdlib.h>

#include "digits.h"

GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) static uint8_t constant_weight[DIGITS_CONSTANT_MEM_SIZE];
GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) static uint8_t mutable_weight[DIGITS_MUTABLE_MEM_SIZE];
GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) static uint8_t activations[DIGITS_ACTIVATIONS_MEM_SIZE];

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <digits.weights.bin> <output file>\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f || fread(constant_weight, 1, sizeof constant_weight, f) != sizeof constant_weight) {
    fprintf(stderr, "%s: cannot read %zu bytes of weights\n", argv[1], sizeof constant_weight);
    return 1;
  }
  fclose(f);
  float *in = (float *)GLOW_GET_ADDR(mutable_weight, DIGITS_input);
  for (int i = 0; i < 64; i++)
    in[i] = (float)(i % 17) / 16.0f;
  if (digits(constant_weight, mutable_weight, activations) != GLOW_SUCCESS) {
    fprintf(stderr, "the bundle failed\n");
    return 1;
  }
  f = fopen(argv[2], "wb");
  if (!f || fwrite(GLOW_GET_ADDR(mutable_weight, DIGITS_output), 1, 40, f) != 40 || fclose(f)) {
    fprintf(stderr, "%s: cannot write the output\n", argv[2]);
    return 1;
  }
  return 0;
}
