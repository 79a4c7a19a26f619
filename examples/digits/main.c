/* Classifies ten 8x8 handwritten digits with a bundle compiled from digits.onnx.
 *
 *   digits-classify <digits.weights.bin>
 *   digits-classify-zst <digits.weights.zst>
 *   bazel run //examples/digits:digits-classify   (the weights from the runfiles)
 *
 * Shows the dynamic-API route: the runtime loads the weights, allocates the
 * bundle's memory and finds the input and output by their names in the model.
 * Built with DIGITS_WEIGHTS_ZST, it reads zstd-packed weights (-weights=zst),
 * checked and unpacked straight into memory by glow_weights_load_zst(). Built
 * with DIGITS_CUDA (digits-classify-cuda), the bundle is a CUDA bundle
 * (-target=nvptx64-nvidia-cuda) and the instance lives on the first GPU: the
 * rest of the program is the same. */
#include <stdio.h>
#include <string.h>

#include "digits.h"
#include "glow-runtime.h"
#include "samples.h"

#ifdef DIGITS_WEIGHTS_ZST
#define LOAD_WEIGHTS glow_weights_load_zst
#define WEIGHTS_FILE "digits.weights.zst"
#ifdef GLOW_RUNFILE_digits_weights_zst
#define WEIGHTS_RUNFILE GLOW_RUNFILE_digits_weights_zst
#endif
#else
#define LOAD_WEIGHTS glow_weights_load
#define WEIGHTS_FILE "digits.weights.bin"
#ifdef GLOW_RUNFILE_digits_weights_bin /* built by Bazel's glow_bundle: the weights are runfiles */
#define WEIGHTS_RUNFILE GLOW_RUNFILE_digits_weights_bin
#endif
#endif
#ifdef DIGITS_CUDA
#define CREATE_INSTANCE(b, w, inst) glow_instance_create_cuda(b, w, 0, inst)
#else
#define CREATE_INSTANCE glow_instance_create
#endif

int main(int argc, char **argv) {
  static const glow_bundle bundle = GLOW_BUNDLE(digits);
  glow_weights *weights = NULL;
  glow_instance *inst = NULL;
  glow_tensor_ref in, out;
  const char *path = argc == 2 ? argv[1] : NULL;
#ifdef WEIGHTS_RUNFILE
  char runfile[4096];
  if (argc == 1 && glow_runfile(WEIGHTS_RUNFILE, argv[0], runfile, sizeof runfile)) {
    fprintf(stderr, "digits-classify: %s\n", glow_last_error());
    return 1;
  }
  if (argc == 1)
    path = runfile;
#endif
  if (!path) {
    fprintf(stderr, "usage: %s <" WEIGHTS_FILE ">\n", argv[0]);
    return 2;
  }
  if (LOAD_WEIGHTS(&bundle, path, &weights) || CREATE_INSTANCE(&bundle, weights, &inst) ||
      glow_instance_find(inst, "input", &in) || glow_instance_find(inst, "output", &out)) {
    fprintf(stderr, "digits-classify: %s\n", glow_last_error());
    glow_instance_free(inst);
    glow_weights_free(weights);
    return 1;
  }
  int correct = 0;
  for (int s = 0; s < 10; s++) {
    memcpy(in.data, glow_digits_samples[s], in.bytes);
    if (glow_instance_run(inst)) {
      fprintf(stderr, "digits-classify: %s\n", glow_last_error());
      return 1;
    }
    const float *logits = out.data;
    int best = 0;
    for (int k = 1; k < (int)out.numel; k++)
      if (logits[k] > logits[best])
        best = k;
    correct += best == glow_digits_labels[s];
    printf("sample %d: predicted %d (label %d)\n", s, best, glow_digits_labels[s]);
  }
  printf("%d of 10 correct\n", correct);
  glow_instance_free(inst);
  glow_weights_free(weights);
  return 0;
}
