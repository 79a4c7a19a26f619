// A static-API client of a bundle of two entries: the areas sized by the header's
// TESTBUNDLE_*_MEM_SIZE macros, each tensor at its TESTBUNDLE_<name> offset, the constant area
// initialized from testBundle.weights.txt. testMainEntry1 then testMainEntry2, then the other
// way round; the outputs checked against numpy's (cases.h).
#include <cstdio>

#include "testBundle.h"
#include "expect.h"

GLOW_MEM_ALIGN(TESTBUNDLE_MEM_ALIGN) static uint8_t constantWeight[TESTBUNDLE_CONSTANT_MEM_SIZE] = {
#include "testBundle.weights.txt"
};
GLOW_MEM_ALIGN(TESTBUNDLE_MEM_ALIGN) static uint8_t mutableWeight[TESTBUNDLE_MUTABLE_MEM_SIZE];
GLOW_MEM_ALIGN(TESTBUNDLE_MEM_ALIGN) static uint8_t activations[TESTBUNDLE_ACTIVATIONS_MEM_SIZE + 16];

static float *at(uint64_t offset) { return reinterpret_cast<float *>(GLOW_GET_ADDR(mutableWeight, offset)); }

int main() {
  float *x1 = at(TESTBUNDLE_input1), *y1 = at(TESTBUNDLE_output1);
  float *x2 = at(TESTBUNDLE_input2), *y2 = at(TESTBUNDLE_output2);
  int bad = run_both("static API, testMainEntry1 then testMainEntry2", testMainEntry1, testMainEntry2, constantWeight,
                     mutableWeight, activations, x1, y1, x2, y2);
  bad += run_both("static API, testMainEntry2 then testMainEntry1", testMainEntry2, testMainEntry1, constantWeight,
                  mutableWeight, activations, x1, y1, x2, y2);
  return bad != 0;
}
