/* print-digits: linked with a dynamic-API bundle of examples/digits/digits.onnx named
 * "digits"; prints the logits of the ten sample images, one line each, to compare
 * bundles made by different code generation paths.
 *
 *   print-digits <digits.weights.bin> */
#include <stdio.h>
#include <string.h>

#include "../../examples/digits/samples.h"
#include "glow-runtime.h"

extern const struct BundleConfig digits_config;
extern const struct GlowTensorInfo digits_tensor_info[];
int digits(uint8_t *constantWeight, uint8_t *mutableWeight, uint8_t *activations);

int main(int argc, char **argv) {
  static const glow_bundle bundle = GLOW_BUNDLE(digits);
  glow_weights *weights = NULL;
  glow_instance *inst = NULL;
  glow_tensor_ref in, out;
  if (argc != 2) {
    fprintf(stderr, "usage: print-digits <digits.weights.bin>\n");
    return 2;
  }
  if (glow_weights_load(&bundle, argv[1], &weights) || glow_instance_create(&bundle, weights, &inst) ||
      glow_instance_find(inst, "input", &in) || glow_instance_find(inst, "output", &out)) {
    fprintf(stderr, "print-digits: %s\n", glow_last_error());
    return 1;
  }
  for (int s = 0; s < 10; s++) {
    memcpy(in.data, glow_digits_samples[s], in.bytes);
    if (glow_instance_run(inst)) {
      fprintf(stderr, "print-digits: %s\n", glow_last_error());
      return 1;
    }
    const float *logits = out.data;
    for (int k = 0; k < (int)out.numel; k++)
      printf("%s%.9g", k ? " " : "", (double)logits[k]);
    printf("\n");
  }
  glow_instance_free(inst);
  glow_weights_free(weights);
  return 0;
}
