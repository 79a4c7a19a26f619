// Client of Glow's bundle_with_extra_objects example: links only lenet_mnist.o, which
// -bundle-objects=test.o made an archive of the bundle and test.o. Prints testMsg, which only
// test.o defines, then runs the bundle (static API) on the PNG digits named on the command line.
#include <stdio.h>

#include "lenet_mnist.h"
#include "png-image.h"

extern "C" {
extern const char *testMsg;
}

enum { kDigits = 10, kSide = 28 };

GLOW_MEM_ALIGN(LENET_MNIST_MEM_ALIGN)
static uint8_t constant_weight[LENET_MNIST_CONSTANT_MEM_SIZE] = {
#include "lenet_mnist.weights.txt"
};

GLOW_MEM_ALIGN(LENET_MNIST_MEM_ALIGN)
static uint8_t mutable_weight[LENET_MNIST_MUTABLE_MEM_SIZE];

GLOW_MEM_ALIGN(LENET_MNIST_MEM_ALIGN)
static uint8_t activations[LENET_MNIST_ACTIVATIONS_MEM_SIZE];

int main(int argc, char **argv) {
  printf("%s", testMsg);
  float *input = reinterpret_cast<float *>(GLOW_GET_ADDR(mutable_weight, LENET_MNIST_data));
  const float *output = reinterpret_cast<float *>(GLOW_GET_ADDR(mutable_weight, LENET_MNIST_softmax));
  for (int i = 1; i < argc; i++) {
    char err[512];
    if (png_image_read(argv[i], 1, kSide, kSide, false, input, err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      return 1;
    }
    if (lenet_mnist(constant_weight, mutable_weight, activations) != GLOW_SUCCESS) {
      fprintf(stderr, "%s: lenet_mnist failed\n", argv[i]);
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
