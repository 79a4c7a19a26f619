// Uses the bundle as Glow's bundle_with_extra_objects program does: the static API's
// macros and weights, and a symbol (testMsg) that only the archived object defines.
#include <cstdio>
#include <cstring>

#include "relu.h"

extern "C" {
extern const char *testMsg;
}

GLOW_MEM_ALIGN(RELU_MEM_ALIGN) static uint8_t constantWeight[RELU_CONSTANT_MEM_SIZE + 1] = {
#include "relu.weights.txt"
};
GLOW_MEM_ALIGN(RELU_MEM_ALIGN) static uint8_t mutableWeight[RELU_MUTABLE_MEM_SIZE];
GLOW_MEM_ALIGN(RELU_MEM_ALIGN) static uint8_t activations[RELU_ACTIVATIONS_MEM_SIZE + 1];

int main() {
  float *x = (float *)GLOW_GET_ADDR(mutableWeight, RELU_x);
  for (int i = 0; i < 60; i++)
    x[i] = (float)(i % 7) - 3.0f;
  if (relu(constantWeight, mutableWeight, activations) != GLOW_SUCCESS)
    return 1;
  const float *y = (const float *)GLOW_GET_ADDR(mutableWeight, RELU_y);
  for (int i = 0; i < 60; i++)
    if (y[i] != (x[i] > 0 ? x[i] : 0.0f)) {
      std::printf("FAIL: y[%d] = %g\n", i, (double)y[i]);
      return 1;
    }
  std::printf("%s\n", testMsg);
  return std::strcmp(testMsg, "Hello from an object archived with the bundle") != 0;
}
