/* Prints the digits bundle's prediction for each sample image. */
#include <stdio.h>
#include <string.h>

#include "digits.h"
#include "glow-runtime.h"
#include "samples.h"

int main(int argc, char **argv) {
  static const glow_bundle bundle = GLOW_BUNDLE(digits);
  glow_weights *weights = NULL;
  glow_instance *inst = NULL;
  glow_tensor_ref in, out;
  if (argc != 2 || glow_weights_load(&bundle, argv[1], &weights) ||
      glow_instance_create(&bundle, weights, &inst) || glow_instance_find(inst, "input", &in) ||
      glow_instance_find(inst, "output", &out)) {
    fprintf(stderr, "classify: %s\n", argc == 2 ? glow_last_error() : "usage: classify <weights>");
    return 1;
  }
  for (int s = 0; s < 10; s++) {
    memcpy(in.data, glow_digits_samples[s], in.bytes);
    if (glow_instance_run(inst)) {
      fprintf(stderr, "classify: %s\n", glow_last_error());
      return 1;
    }
    const float *logits = out.data;
    int best = 0;
    for (int k = 1; k < (int)out.numel; k++)
      if (logits[k] > logits[best])
        best = k;
    printf("sample %d: predicted %d (label %d)\n", s, best, glow_digits_labels[s]);
  }
  glow_instance_free(inst);
  glow_weights_free(weights);
  return 0;
}
