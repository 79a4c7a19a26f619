/* Held-out accuracy of the float digits bundle and of the int8 one quantized from
 * a profile of 200 training images (issue: quantization loses at most 1 point).
 *
 *   digits-accuracy <float.weights.bin> <int8.weights.bin> <images.bin> <labels.txt>
 *
 * images.bin: N 1x1x8x8 float32 images (examples/digits/write-data.py heldout);
 * labels.txt: their digits, one a line. Prints both accuracies; exits 1 if the
 * int8 bundle is more than 1 point below the float one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digits_f32.h"
#include "glow-runtime.h"
#include INT8_HEADER /* the int8 bundle under test, named INT8_NET (one program per schema) */

#define BUNDLE_OF(net) GLOW_BUNDLE(net) /* expands INT8_NET before GLOW_BUNDLE pastes it */

static int classify(const glow_bundle *b, const char *weights, const float *images, const int *labels, int n,
                    int *correct) {
  glow_weights *w = NULL;
  glow_instance *inst = NULL;
  glow_tensor_ref in, out;
  if (glow_weights_load(b, weights, &w) || glow_instance_create(b, w, &inst) ||
      glow_instance_find(inst, "input", &in) || glow_instance_find(inst, "output", &out)) {
    fprintf(stderr, "digits-accuracy: %s\n", glow_last_error());
    glow_instance_free(inst);
    glow_weights_free(w);
    return -1;
  }
  *correct = 0;
  for (int i = 0; i < n; i++) {
    memcpy(in.data, images + 64 * i, 64 * sizeof(float));
    if (glow_instance_run(inst)) {
      fprintf(stderr, "digits-accuracy: %s\n", glow_last_error());
      return -1;
    }
    const float *y = out.data;
    int best = 0;
    for (int k = 1; k < 10; k++)
      if (y[k] > y[best])
        best = k;
    *correct += best == labels[i];
  }
  glow_instance_free(inst);
  glow_weights_free(w);
  return 0;
}

int main(int argc, char **argv) {
  static const glow_bundle f32 = GLOW_BUNDLE(digits_f32), int8 = BUNDLE_OF(INT8_NET);
  if (argc != 5) {
    fprintf(stderr, "usage: %s <float.weights.bin> <int8.weights.bin> <images.bin> <labels.txt>\n", argv[0]);
    return 2;
  }
  FILE *fi = fopen(argv[3], "rb"), *fl = fopen(argv[4], "r");
  if (!fi || !fl) {
    fprintf(stderr, "digits-accuracy: cannot open %s\n", !fi ? argv[3] : argv[4]);
    return 2;
  }
  int n = 0, cap = 0, *labels = NULL, v;
  while (fscanf(fl, "%d", &v) == 1) {
    if (n == cap)
      labels = realloc(labels, sizeof(int) * (size_t)(cap = cap ? 2 * cap : 512));
    labels[n++] = v;
  }
  float *images = malloc(sizeof(float) * 64 * (size_t)(n ? n : 1));
  if (n == 0 || fread(images, sizeof(float) * 64, (size_t)n, fi) != (size_t)n) {
    fprintf(stderr, "digits-accuracy: %s does not hold the %d images of %s\n", argv[3], n, argv[4]);
    return 2;
  }
  fclose(fi);
  fclose(fl);
  int cf, cq;
  if (classify(&f32, argv[1], images, labels, n, &cf) || classify(&int8, argv[2], images, labels, n, &cq))
    return 1;
  double af = 100.0 * cf / n, aq = 100.0 * cq / n;
  printf("%s: held-out accuracy over %d images: float %.2f%% (%d), quantized %.2f%% (%d), difference %.2f points\n",
         int8.name, n, af, cf, aq, cq, af - aq);
  free(images);
  free(labels);
  if (af - aq > 1.0) {
    printf("FAIL: the quantized bundle loses more than 1 point\n");
    return 1;
  }
  return 0;
}
