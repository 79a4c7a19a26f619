/* A bundle compiled with -num-threads=3 ("multi") against the same model with
 * one thread ("single"): on all ten digits samples the outputs must be the same
 * bits, with the pool capped at 1, 2 and 3 threads (WITH_POOL=1), or with no
 * pool linked at all (WITH_POOL=0: the bundle's weak glow_parallel_for is NULL
 * and every part runs on this thread).
 *   threads-identical <single.weights.bin> <multi.weights.bin> */
#include <stdio.h>
#include <string.h>

#include "glow-runtime.h"
#include "samples.h"

extern BundleConfig single_config, multi_config;
extern const struct GlowTensorInfo single_tensor_info[], multi_tensor_info[];
int single(uint8_t *constantWeight, uint8_t *mutableWeight, uint8_t *activations);
int multi(uint8_t *constantWeight, uint8_t *mutableWeight, uint8_t *activations);

static int run(glow_instance *inst, int sample, float *out, size_t cap) {
  glow_tensor_ref in, o;
  if (glow_instance_find(inst, "input", &in) || glow_instance_find(inst, "output", &o) || o.bytes > cap ||
      in.bytes != sizeof glow_digits_samples[sample]) {
    fprintf(stderr, "threads-identical: %s\n", glow_last_error());
    return -1;
  }
  memcpy(in.data, glow_digits_samples[sample], in.bytes);
  if (glow_instance_run(inst)) {
    fprintf(stderr, "threads-identical: %s\n", glow_last_error());
    return -1;
  }
  memcpy(out, o.data, o.bytes);
  return (int)o.bytes;
}

int main(int argc, char **argv) {
  static const glow_bundle bs = GLOW_BUNDLE(single), bm = GLOW_BUNDLE(multi);
  glow_weights *ws, *wm;
  glow_instance *is, *im;
  if (argc != 3 || glow_weights_load(&bs, argv[1], &ws) || glow_weights_load(&bm, argv[2], &wm) ||
      glow_instance_create(&bs, ws, &is) || glow_instance_create(&bm, wm, &im)) {
    fprintf(stderr, "usage: threads-identical <single.weights.bin> <multi.weights.bin>: %s\n", glow_last_error());
    return 2;
  }
  int caps[] = {1, 2, 3}, ncaps = WITH_POOL ? 3 : 1, bad = 0;
  for (int c = 0; c < ncaps; c++) {
#if WITH_POOL
    glow_threads_set(caps[c]);
#endif
    for (int s = 0; s < 10; s++) {
      float a[64], b[64];
      int na = run(is, s, a, sizeof a), nb = run(im, s, b, sizeof b);
      if (na < 0 || nb != na)
        return 1;
      if (memcmp(a, b, (size_t)na)) {
        fprintf(stderr, "threads-identical: sample %d differs with %d threads: %.9g vs %.9g (first value)\n", s,
                WITH_POOL ? caps[c] : 1, a[0], b[0]);
        bad = 1;
      }
    }
  }
  printf("threads-identical: %s (%s)\n", bad ? "DIFFERENT" : "same bits", WITH_POOL ? "pool of 1, 2, 3" : "no pool");
  glow_instance_free(is);
  glow_instance_free(im);
  glow_weights_free(ws);
  glow_weights_free(wm);
  return bad;
}
