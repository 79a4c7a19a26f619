/* How close an int8 bundle's outputs stay to the float bundle's: the cosine
 * similarity of the two output vectors for each input (issue: >= 0.99 for
 * resnet18 and mobilenet_v2 quantized from 32 calibration images).
 *
 *   logits-cosine <float.weights.bin> <int8.weights.bin> <input.bin>...
 *
 * Built by run-cosine.sh with -DF32_NET=<name> -DINT8_NET=<name> and the two
 * bundle headers; both bundles use the dynamic API, input "input", output
 * "output". Prints each similarity and the smallest; exits 1 below 0.99, or
 * below GLOWC_MIN_COSINE where that is set (int16 bundles are held to more). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "glow-runtime.h"
#include F32_HEADER
#include INT8_HEADER

#define BUNDLE_OF(net) GLOW_BUNDLE(net) /* expands the macro before GLOW_BUNDLE pastes it */

typedef struct {
  glow_weights *w;
  glow_instance *inst;
  glow_tensor_ref in, out;
} net;

static int open_net(const glow_bundle *b, const char *weights, net *n) {
  if (glow_weights_load(b, weights, &n->w) || glow_instance_create(b, n->w, &n->inst) ||
      glow_instance_find(n->inst, "input", &n->in) || glow_instance_find(n->inst, "output", &n->out)) {
    fprintf(stderr, "logits-cosine: %s: %s\n", b->name, glow_last_error());
    return -1;
  }
  return 0;
}

static int load(const char *path, void *dst, size_t bytes) {
  FILE *f = fopen(path, "rb");
  size_t got = f ? fread(dst, 1, bytes, f) : 0;
  int extra = f ? fgetc(f) != EOF : 0;
  if (f)
    fclose(f);
  if (got != bytes || extra) {
    fprintf(stderr, "logits-cosine: %s: expected %zu bytes\n", path, bytes);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  static const glow_bundle bf = BUNDLE_OF(F32_NET), bq = BUNDLE_OF(INT8_NET);
  net f, q;
  if (argc < 4) {
    fprintf(stderr, "usage: %s <float.weights.bin> <int8.weights.bin> <input.bin>...\n", argv[0]);
    return 2;
  }
  if (open_net(&bf, argv[1], &f) || open_net(&bq, argv[2], &q))
    return 2;
  double worst = 1.0;
  for (int a = 3; a < argc; a++) {
    if (load(argv[a], f.in.data, f.in.bytes) || load(argv[a], q.in.data, q.in.bytes))
      return 2;
    if (glow_instance_run(f.inst) || glow_instance_run(q.inst)) {
      fprintf(stderr, "logits-cosine: %s\n", glow_last_error());
      return 2;
    }
    const float *yf = f.out.data, *yq = q.out.data;
    double dot = 0, nf = 0, nq = 0;
    for (uint64_t i = 0; i < f.out.numel; i++) {
      dot += (double)yf[i] * yq[i];
      nf += (double)yf[i] * yf[i];
      nq += (double)yq[i] * yq[i];
    }
    double cs = nf > 0 && nq > 0 ? dot / sqrt(nf * nq) : 0.0;
    printf("%s: cosine %.7f\n", argv[a], cs);
    worst = cs < worst ? cs : worst;
  }
  printf("%s vs %s: smallest cosine similarity %.7f over %d inputs\n", bq.name, bf.name, worst, argc - 3);
  const char *min = getenv("GLOWC_MIN_COSINE");
  double want = min && *min ? atof(min) : 0.99;
  printf("required: %.6f\n", want);
  return worst >= want ? 0 : 1;
}
