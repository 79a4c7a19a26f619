// Client of Glow's resnet50 example: the dynamic bundle API. The input and output are found in
// resnet50_config's symbol table by their legalized names (gpu_0_data, gpu_0_softmax, compared
// with strncmp as Glow's program does), the weights read from resnet50.weights.bin in the current
// folder, the three areas allocated at the config's alignment. Classifies each PNG named on the
// command line (224x224 RGB, fed as Glow's image-classifier does by default: 0to1, BGR, NCHW) and
// prints the top-1 class and its probability.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png-image.h"
#include "resnet50.h"

enum { kSide = 224 };

// The mutable symbol whose name starts with `name`, or NULL.
static const SymbolTableEntry *find_mutable(const BundleConfig &config, const char *name) {
  for (uint64_t i = 0; i < config.numSymbols; i++) {
    const SymbolTableEntry &s = config.symbolTable[i];
    if (strncmp(s.name, name, strlen(name)) == 0)
      return s.kind != 0 ? &s : nullptr;
  }
  return nullptr;
}

static uint8_t *aligned_zeroed(const BundleConfig &config, uint64_t size) {
  void *p = nullptr;
  if (posix_memalign(&p, config.alignment, size ? size : 1) != 0)
    return nullptr;
  memset(p, 0, size);
  return static_cast<uint8_t *>(p);
}

// resnet50.weights.bin, which must be exactly constantWeightVarsMemSize bytes.
static uint8_t *load_weights(const BundleConfig &config, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: cannot open (run from the bundle's folder)\n", path);
    return nullptr;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *w = size >= 0 && (uint64_t)size == config.constantWeightVarsMemSize
                   ? aligned_zeroed(config, (uint64_t)size) : nullptr;
  if (!w)
    fprintf(stderr, "%s: %ld bytes, resnet50_config wants %" PRIu64 "\n", path, size,
            config.constantWeightVarsMemSize);
  else if (size && fread(w, (size_t)size, 1, f) != 1) {
    fprintf(stderr, "%s: read error\n", path);
    free(w);
    w = nullptr;
  }
  fclose(f);
  return w;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <image.png>...\n", argv[0]);
    return 2;
  }
  const BundleConfig &config = resnet50_config;
  const SymbolTableEntry *in = find_mutable(config, "gpu_0_data");
  const SymbolTableEntry *out = find_mutable(config, "gpu_0_softmax");
  if (!in || !out || in->size != 3 * kSide * kSide) {
    fprintf(stderr, "resnet50_config: want mutable gpu_0_data of 3x%dx%d floats and gpu_0_softmax\n", kSide, kSide);
    return 1;
  }
  uint8_t *constant = load_weights(config, "resnet50.weights.bin");
  uint8_t *mutable_area = aligned_zeroed(config, config.mutableWeightVarsMemSize);
  uint8_t *activations = aligned_zeroed(config, config.activationsMemSize);
  if (!constant || !mutable_area || !activations)
    return 1;
  float *input = reinterpret_cast<float *>(mutable_area + in->offset);
  const float *probs = reinterpret_cast<const float *>(mutable_area + out->offset);
  int status = 0;
  for (int i = 1; i < argc && !status; i++) {
    char err[512];
    if (png_image_read(argv[i], 3, kSide, kSide, true, input, err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      status = 1;
      break;
    }
    int rc = resnet50(constant, mutable_area, activations);
    if (rc != GLOW_SUCCESS) {
      fprintf(stderr, "%s: resnet50 returned %d\n", argv[i], rc);
      status = 1;
      break;
    }
    uint64_t best = 0;
    for (uint64_t k = 1; k < out->size; k++)
      if (probs[k] > probs[best])
        best = k;
    printf("Image: %s\nResult: %" PRIu64 "\nConfidence: %f\n", argv[i], best, probs[best]);
  }
  free(activations);
  free(mutable_area);
  free(constant);
  return status;
}
