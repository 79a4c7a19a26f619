// Client of Glow's bundle_with_multiple_entries example: one bundle, testBundle, with two entries,
// testMainEntry1 and testMainEntry2, sharing testBundle_config (dynamic API) and one weights file,
// testBundle.weights.bin. Each entry gets its own freshly allocated areas of the shared sizes,
// its input (input1 or input2, found in the symbol table by name) set to 16 ones. With the
// constants of 1/16, 2/16 and 3/16 entry 1 (two MatMuls) must give 16 values of 1*2 = 2 in
// output1 and entry 2 (three) 16 values of 1*2*3 = 6 in output2.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testBundle.h"

typedef int (*Entry)(uint8_t *constantWeight, uint8_t *mutableWeight, uint8_t *activations);

static const SymbolTableEntry *find_mutable(const BundleConfig &config, const char *name) {
  for (uint64_t i = 0; i < config.numSymbols; i++)
    if (strncmp(config.symbolTable[i].name, name, strlen(name)) == 0)
      return config.symbolTable[i].kind != 0 ? &config.symbolTable[i] : nullptr;
  return nullptr;
}

static uint8_t *aligned_zeroed(uint64_t size) {
  void *p = nullptr;
  if (posix_memalign(&p, testBundle_config.alignment, size ? size : 1) != 0)
    return nullptr;
  memset(p, 0, size);
  return static_cast<uint8_t *>(p);
}

static uint8_t *load_weights(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: cannot open (run from the bundle's folder)\n", path);
    return nullptr;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *w = size >= 0 && (uint64_t)size == testBundle_config.constantWeightVarsMemSize
                   ? aligned_zeroed((uint64_t)size) : nullptr;
  if (!w || (size && fread(w, (size_t)size, 1, f) != 1)) {
    fprintf(stderr, "%s: %ld bytes, testBundle_config wants %" PRIu64 "\n", path, size,
            testBundle_config.constantWeightVarsMemSize);
    free(w);
    w = nullptr;
  }
  fclose(f);
  return w;
}

// Runs `entry` with `in` set to ones; 0 when every value of `out` is `want`.
static int run_entry(const char *label, Entry entry, const char *in, const char *out, float want) {
  const SymbolTableEntry *si = find_mutable(testBundle_config, in);
  const SymbolTableEntry *so = find_mutable(testBundle_config, out);
  if (!si || !so) {
    fprintf(stderr, "%s: testBundle_config has no mutable %s\n", label, si ? out : in);
    return 1;
  }
  uint8_t *constant = load_weights("testBundle.weights.bin");
  uint8_t *mutable_area = aligned_zeroed(testBundle_config.mutableWeightVarsMemSize);
  uint8_t *activations = aligned_zeroed(testBundle_config.activationsMemSize);
  int bad = !constant || !mutable_area || !activations;
  if (!bad) {
    float *x = reinterpret_cast<float *>(mutable_area + si->offset);
    for (uint64_t i = 0; i < si->size; i++)
      x[i] = 1.0f;
    bad = entry(constant, mutable_area, activations) != GLOW_SUCCESS;
    const float *y = reinterpret_cast<const float *>(mutable_area + so->offset);
    printf("%s: %s:", label, out);
    for (uint64_t i = 0; i < so->size; i++) {
      printf(" %.2f", y[i]);
      bad |= fabsf(y[i] - want) > 1e-5f * want;
    }
    printf("\n");
    bad |= so->size != 16;
  }
  if (bad)
    fprintf(stderr, "%s: want 16 values of %.1f in %s\n", label, want, out);
  free(activations);
  free(mutable_area);
  free(constant);
  return bad;
}

int main() {
  int bad = run_entry("testMainEntry1", testMainEntry1, "input1", "output1", 2.0f);
  bad |= run_entry("testMainEntry2", testMainEntry2, "input2", "output2", 6.0f);
  return bad;
}
