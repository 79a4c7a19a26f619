// A dynamic-API client of a bundle of two entries, using the API surface Glow's
// bundle_with_multiple_entries example uses: each tensor found by name in
// testBundle_config.symbolTable, the three areas allocated once from testBundle_config's sizes
// for both entries, the constant area read from testBundle.weights.bin. testMainEntry1 then
// testMainEntry2, then the other way round; the outputs checked against numpy's (cases.h).
//   dynamic-client <testBundle.weights.bin>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "testBundle.h"
#include "expect.h"

static int bad = 0;

// The symbol named `name`, which must be mutable and hold `size` elements.
static const SymbolTableEntry *symbol(const char *name, uint64_t size) {
  for (uint64_t i = 0; i < testBundle_config.numSymbols; i++) {
    const SymbolTableEntry *s = &testBundle_config.symbolTable[i];
    if (std::strcmp(s->name, name))
      continue;
    if (s->kind == 0 || s->size != size) {
      std::printf("FAIL %s: kind %d, %llu elements (want mutable, %llu)\n", name, s->kind,
                  (unsigned long long)s->size, (unsigned long long)size);
      bad++;
    }
    return s;
  }
  std::printf("FAIL: no symbol '%s' in testBundle_config.symbolTable\n", name);
  std::exit(1);
}

static uint8_t *area(uint64_t size) {
  void *p = nullptr;
  if (posix_memalign(&p, testBundle_config.alignment, size ? size : 1))
    std::abort();
  return static_cast<uint8_t *>(p);
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  if (testBundle_config.numSymbols != 4) {
    std::printf("FAIL: %llu symbols, want 4 (input1, output1, input2, output2)\n",
                (unsigned long long)testBundle_config.numSymbols);
    bad++;
  }
  const SymbolTableEntry *in1 = symbol("input1", 6), *out1 = symbol("output1", 8);
  const SymbolTableEntry *in2 = symbol("input2", 5), *out2 = symbol("output2", 5);
  // Inputs and outputs of both entries in the mutable area, none overlapping another.
  const SymbolTableEntry *all[4] = {in1, out1, in2, out2};
  for (int i = 0; i < 4; i++) {
    if (all[i]->offset + 4 * all[i]->size > testBundle_config.mutableWeightVarsMemSize)
      std::printf("FAIL %s: past the mutable area\n", all[i]->name), bad++;
    for (int j = 0; j < i; j++)
      if (all[i]->offset < all[j]->offset + 4 * all[j]->size && all[j]->offset < all[i]->offset + 4 * all[i]->size)
        std::printf("FAIL: %s and %s overlap\n", all[i]->name, all[j]->name), bad++;
  }

  FILE *f = std::fopen(argv[1], "rb");
  if (!f) {
    std::printf("FAIL: cannot open %s\n", argv[1]);
    return 1;
  }
  std::fseek(f, 0, SEEK_END);
  long file_size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  if ((uint64_t)file_size != testBundle_config.constantWeightVarsMemSize) {
    std::printf("FAIL: the weights file has %ld bytes, the config says %llu\n", file_size,
                (unsigned long long)testBundle_config.constantWeightVarsMemSize);
    return 1;
  }
  uint8_t *constant = area(testBundle_config.constantWeightVarsMemSize);
  uint8_t *mutable_area = area(testBundle_config.mutableWeightVarsMemSize);
  uint8_t *activations = area(testBundle_config.activationsMemSize + 16);
  if (std::fread(constant, 1, (size_t)file_size, f) != (size_t)file_size)
    return 1;
  std::fclose(f);

  float *x1 = reinterpret_cast<float *>(mutable_area + in1->offset);
  float *y1 = reinterpret_cast<float *>(mutable_area + out1->offset);
  float *x2 = reinterpret_cast<float *>(mutable_area + in2->offset);
  float *y2 = reinterpret_cast<float *>(mutable_area + out2->offset);
  bad += run_both("dynamic API, testMainEntry1 then testMainEntry2", testMainEntry1, testMainEntry2, constant,
                  mutable_area, activations, x1, y1, x2, y2);
  bad += run_both("dynamic API, testMainEntry2 then testMainEntry1", testMainEntry2, testMainEntry1, constant,
                  mutable_area, activations, x1, y1, x2, y2);
  std::free(constant);
  std::free(mutable_area);
  std::free(activations);
  return bad != 0;
}
