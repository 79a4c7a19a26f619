/* Runs the tiny.tflite bundle on the input x given on the command line and prints y.
 *   run-tiny <tiny.weights.bin> <x0> <x1> <x2> <x3> */
#include <stdio.h>
#include <stdlib.h>

#include "glow-runtime.h"
#include "tiny.h"

int main(int argc, char **argv) {
  static const glow_bundle bundle = GLOW_BUNDLE(tiny);
  glow_weights *w = NULL;
  glow_instance *inst = NULL;
  glow_tensor_ref x, y;
  if (argc != 6) {
    fprintf(stderr, "usage: run-tiny <tiny.weights.bin> <x0> <x1> <x2> <x3>\n");
    return 2;
  }
  if (glow_weights_load(&bundle, argv[1], &w) || glow_instance_create(&bundle, w, &inst) ||
      glow_instance_find(inst, "x", &x) || glow_instance_find(inst, "y", &y) || x.numel != 4) {
    fprintf(stderr, "run-tiny: %s\n", glow_last_error());
    return 1;
  }
  for (int i = 0; i < 4; i++)
    ((float *)x.data)[i] = strtof(argv[2 + i], NULL);
  if (glow_instance_run(inst)) {
    fprintf(stderr, "run-tiny: %s\n", glow_last_error());
    return 1;
  }
  for (uint64_t i = 0; i < y.numel; i++)
    printf("%s%.9g", i ? " " : "", ((const float *)y.data)[i]);
  printf("\n");
  glow_instance_free(inst);
  glow_weights_free(w);
  return 0;
}
