// Client of Glow's bundle_tflite_custom example: gen-tflite-custom.py's model (a CUSTOM operator
// "MyCustomOperator" (input, constant [1, 2]) -> custom_out[3], scratch[4], then ADD custom_out +
// [10, 20, 30] -> output), compiled as Glow's CMakeLists.txt compiles it (static API, network
// "model"). Defines glow_tflite_custom_operator with Glow's signature and checks what the bundle
// passes: the custom code, the options byte for byte (the generator's options.bin, argv[1]), 2
// inputs and 2 outputs of 4, 8, 12 and 16 bytes, the input the program set and the constant, each
// operand where it belongs (the input in the mutable area, the constant in the constant area, the
// outputs apart in the activations). It writes custom_out[i] = input * (i + 1) + constant[i % 2]
// and fills scratch; the bundle's ADD must then give output = custom_out + [10, 20, 30]. Runs the
// bundle on each value of argv[2...]; exit status 0 only when every check passed.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "model.h"

GLOW_MEM_ALIGN(MODEL_MEM_ALIGN)
static uint8_t constant_weight[MODEL_CONSTANT_MEM_SIZE] = {
#include "model.weights.txt"
};

GLOW_MEM_ALIGN(MODEL_MEM_ALIGN)
static uint8_t mutable_weight[MODEL_MUTABLE_MEM_SIZE];

GLOW_MEM_ALIGN(MODEL_MEM_ALIGN)
static uint8_t activations[MODEL_ACTIVATIONS_MEM_SIZE];

namespace {

std::vector<uint8_t> expected_options;
int calls = 0, errors = 0;

void check(bool ok, const char *what) {
  if (!ok && errors++ < 20)
    fprintf(stderr, "custom operator error: %s\n", what);
}

bool inside(const uint8_t *p, int size, const uint8_t *area, size_t area_size) {
  return p >= area && size >= 0 && (size_t)(p - area) + (size_t)size <= area_size;
}

// The area holding [p, p + size) and p's offset in it.
const char *area_of(const uint8_t *p, int size, long *offset) {
  const struct {
    const char *name;
    const uint8_t *base;
    size_t size;
  } areas[3] = {{"constant", constant_weight, sizeof constant_weight},
                {"mutable", mutable_weight, sizeof mutable_weight},
                {"activations", activations, sizeof activations}};
  for (const auto &a : areas)
    if (inside(p, size, a.base, a.size)) {
      *offset = (long)(p - a.base);
      return a.name;
    }
  return "outside the areas";
}

float read_float(const uint8_t *p, int i) {
  float v;
  memcpy(&v, p + 4 * i, 4);
  return v;
}

void write_float(uint8_t *p, int i, float v) { memcpy(p + 4 * i, &v, 4); }

}  // namespace

extern "C" {
void glow_tflite_custom_operator(const char *type, const uint8_t *optsAddr, int optsSize, int opInp, int opOut,
                                 uint8_t **opAddr, int *opSize) {
  calls++;
  printf("custom operator: type %s, %d option bytes, %d inputs, %d outputs\n", type, optsSize, opInp, opOut);
  check(!strcmp(type, "MyCustomOperator"), "type is not MyCustomOperator");
  check(optsSize == (int)expected_options.size() && optsAddr &&
            !memcmp(optsAddr, expected_options.data(), expected_options.size()),
        "the options are not the model's bytes");
  if (opInp != 2 || opOut != 2) {
    check(false, "not 2 inputs and 2 outputs");
    return;
  }
  const int sizes[4] = {4, 8, 12, 16};
  for (int k = 0; k < 4; k++) {
    long offset = 0;
    const char *area = area_of(opAddr[k], opSize[k], &offset);
    printf("  operand %d: %d bytes at %s+%ld\n", k, opSize[k], area, offset);
    check(opSize[k] == sizes[k], "an operand's size is wrong");
  }
  check(opAddr[0] == GLOW_GET_ADDR(mutable_weight, MODEL_input), "input 0 is not the model's input");
  long offset;
  check(!strcmp(area_of(opAddr[1], opSize[1], &offset), "constant"), "input 1 is not in the constant area");
  check(!strcmp(area_of(opAddr[2], opSize[2], &offset), "activations") &&
            !strcmp(area_of(opAddr[3], opSize[3], &offset), "activations"),
        "an output is not in the activations");
  check(opAddr[2] + opSize[2] <= opAddr[3] || opAddr[3] + opSize[3] <= opAddr[2], "the outputs overlap");
  float x = read_float(opAddr[0], 0), c0 = read_float(opAddr[1], 0), c1 = read_float(opAddr[1], 1);
  printf("  inputs: %g; %g %g\n", x, c0, c1);
  check(c0 == 1.0f && c1 == 2.0f, "the constant is not [1, 2]");
  for (int i = 0; i < 3; i++)
    write_float(opAddr[2], i, x * (float)(i + 1) + (i % 2 ? c1 : c0));
  for (int i = 0; i < 4; i++)
    write_float(opAddr[3], i, -1.0f);
}
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s <options.bin> <input value>...\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  for (int ch; (ch = fgetc(f)) != EOF;)
    expected_options.push_back((uint8_t)ch);
  fclose(f);
  for (int a = 2; a < argc; a++) {
    float x = strtof(argv[a], NULL), *in = (float *)GLOW_GET_ADDR(mutable_weight, MODEL_input);
    float *out = (float *)GLOW_GET_ADDR(mutable_weight, MODEL_output);
    in[0] = x;
    int before = calls, rc = model(constant_weight, mutable_weight, activations);
    check(rc == GLOW_SUCCESS, "the bundle did not return GLOW_SUCCESS");
    check(calls == before + 1, "the bundle did not call glow_tflite_custom_operator once");
    printf("input %g: output %g %g %g\n", x, out[0], out[1], out[2]);
    const float bias[3] = {10, 20, 30}, c[3] = {1, 2, 1};
    for (int i = 0; i < 3; i++)
      check(out[i] == x * (float)(i + 1) + c[i] + bias[i], "the output is not custom_out + [10, 20, 30]");
  }
  printf("calls: %d, errors: %d\n", calls, errors);
  return errors ? 1 : 0;
}
