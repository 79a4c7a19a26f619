// Client of Glow's lenet_mnist example: the static bundle API (the header's offset and size
// macros, weights compiled in from lenet_mnist.weights.txt), each PNG digit named on the
// command line classified in turn.
#include <stdio.h>
#include <string.h>

#include "lenet_mnist.h"
#include "png-image.h"

enum { kDigits = 10, kSide = 28 };

GLOW_MEM_ALIGN(LENET_MNIST_MEM_ALIGN)
static uint8_t constant_weight[LENET_MNIST_CONSTANT_MEM_SIZE] = {
#include "lenet_mnist.weights.txt"
};

GLOW_MEM_ALIGN(LENET_MNIST_MEM_ALIGN)
static uint8_t mutable_weight[LENET_MNIST_MUTABLE_MEM_SIZE];

GLOW_MEM_ALIGN(LENET_MNIST_MEM_ALIGN)
static uint8_t activations[LENET_MNIST_ACTIVATIONS_MEM_SIZE];

static float *const input = reinterpret_cast<float *>(GLOW_GET_ADDR(mutable_weight, LENET_MNIST_data));
static const float *const output = reinterpret_cast<float *>(GLOW_GET_ADDR(mutable_weight, LENET_MNIST_softmax));

static_assert(LENET_MNIST_softmax - LENET_MNIST_data >= kSide * kSide * sizeof(float),
              "the input must hold one 1x28x28 float image");

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <digit.png>...\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    char err[512];
    if (png_image_read(argv[i], 1, kSide, kSide, false, input, err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      return 1;
    }
    int rc = lenet_mnist(constant_weight, mutable_weight, activations);
    if (rc != GLOW_SUCCESS) {
      fprintf(stderr, "%s: lenet_mnist returned %d\n", argv[i], rc);
      return 1;
    }
    int best = 0;
    for (int k = 1; k < kDigits; k++)
      if (output[k] > output[best])
        best = k;
    printf("Image: %s\nResult: %d\nConfidence: %f\n", argv[i], best, output[best]);
  }
  return 0;
}
