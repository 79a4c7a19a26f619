// A static-API client as Glow's examples write one: the header's offset macros, by the names
// Glow gives the tensors (SYMBOLS_gpu_0_data for "gpu_0/data", ...). LONG_SYMBOL (-D) is the
// long output's legal name, cut as Glow cuts it.
#include <cstdio>
#include <cstring>

#include "client-checks.h"
#include "symbols.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

GLOW_MEM_ALIGN(SYMBOLS_MEM_ALIGN) static uint8_t constantWeight[SYMBOLS_CONSTANT_MEM_SIZE + 64];
GLOW_MEM_ALIGN(SYMBOLS_MEM_ALIGN) static uint8_t mutableWeight[SYMBOLS_MUTABLE_MEM_SIZE];
GLOW_MEM_ALIGN(SYMBOLS_MEM_ALIGN) static uint8_t activations[SYMBOLS_ACTIVATIONS_MEM_SIZE + 64];

static float *at(uint64_t offset) { return reinterpret_cast<float *>(GLOW_GET_ADDR(mutableWeight, offset)); }

int main() {
  float *in[7] = {at(SYMBOLS_gpu_0_data), at(SYMBOLS_a_b),  at(SYMBOLS_a_b__1), at(SYMBOLS_a_b__2),
                  at(SYMBOLS_q__1),       at(SYMBOLS_q__2), at(SYMBOLS_A7up)};
  fill_inputs(in);
  if (symbols(constantWeight, mutableWeight, activations) != GLOW_SUCCESS) {
    std::printf("FAIL: the entry returned an error\n");
    return 1;
  }
  int bad = check_outputs(at(SYMBOLS_gpu_0_softmax), at(SYMBOLS_a_b__3), at(CAT(SYMBOLS_, LONG_SYMBOL)),
                          at(SYMBOLS_A7up__1));
  std::printf("static API: %s\n", bad ? "FAIL" : "ok");
  return bad != 0;
}
