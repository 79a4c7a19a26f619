// Client of Glow's bundle_instrument example: lenet_mnist compiled with -instrument-ir (and
// -instrument-debug), the static API. Defines glow_instrument_before/after with Glow's signature
// and checks what the bundle passes: IDs 0, 1, 2, ... each opened by a before call and closed by
// an after call with the same ID, kind, operand counts, addresses and sizes, every operand inside
// one of the three memory areas. Dumps the operands as -instrument-debug numbers its files
// (per instruction the outputs, then the inputs; inputs before the instruction runs, outputs
// after) to INSTRUMENT_IR_DIR/dataNNNN.bin, for the test to compare. Prints the number of
// instructions, of dumps and of errors, then the digit.
#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "lenet_mnist.h"
#include "png-image.h"

#ifndef INSTRUMENT_IR_DIR
#error "define INSTRUMENT_IR_DIR, the folder for the operand dumps"
#endif

enum { kDigits = 10, kSide = 28 };

GLOW_MEM_ALIGN(LENET_MNIST_MEM_ALIGN)
static uint8_t constant_weight[LENET_MNIST_CONSTANT_MEM_SIZE] = {
#include "lenet_mnist.weights.txt"
};

GLOW_MEM_ALIGN(LENET_MNIST_MEM_ALIGN)
static uint8_t mutable_weight[LENET_MNIST_MUTABLE_MEM_SIZE];

GLOW_MEM_ALIGN(LENET_MNIST_MEM_ALIGN)
static uint8_t activations[LENET_MNIST_ACTIVATIONS_MEM_SIZE];

namespace {

struct Call {
  int id, kind, inputs, outputs;
  std::vector<uint8_t *> addr;
  std::vector<int> size;
};

int next_id = 0;      // the ID the next before call must carry
bool open_call = false;
Call pending;         // the last before call, until its after call
int dump_base = 0;    // number of the first dump file of the current instruction
int dumps = 0, errors = 0;

void error(const char *what, int id) {
  if (errors++ < 20)
    fprintf(stderr, "instrumentation error at ID %d: %s\n", id, what);
}

bool in_area(const uint8_t *p, int size, const uint8_t *area, size_t area_size) {
  return p >= area && size >= 0 && (size_t)(p - area) + (size_t)size <= area_size;
}

bool operand_ok(const uint8_t *p, int size) {
  return size > 0 && (in_area(p, size, constant_weight, sizeof constant_weight) ||
                      in_area(p, size, mutable_weight, sizeof mutable_weight) ||
                      in_area(p, size, activations, sizeof activations));
}

void dump(int index, const uint8_t *p, int size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/data%04d.bin", INSTRUMENT_IR_DIR, index);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "%s: cannot write\n", path);
    errors++;
  }
  if (f)
    fclose(f);
  dumps++;
}

}  // namespace

extern "C" {

void glow_instrument_before(int id, int kind, int opInp, int opOut, uint8_t **opAddr, int *opSize) {
  if (open_call)
    error("before call while the previous instruction's after call is missing", id);
  if (id != next_id)
    error("IDs out of order", id);
  if (opInp < 0 || opOut < 0 || opInp + opOut == 0) {
    error("bad operand counts", id);
    return;
  }
  pending = Call{id, kind, opInp, opOut, std::vector<uint8_t *>(opAddr, opAddr + opInp + opOut),
                 std::vector<int>(opSize, opSize + opInp + opOut)};
  open_call = true;
  for (int i = 0; i < opInp + opOut; i++)
    if (!operand_ok(opAddr[i], opSize[i]))
      error("operand outside the constant, mutable and activations areas", id);
  for (int i = 0; i < opInp; i++)
    dump(dump_base + opOut + i, opAddr[i], opSize[i]);
}

void glow_instrument_after(int id, int kind, int opInp, int opOut, uint8_t **opAddr, int *opSize) {
  if (!open_call || pending.id != id) {
    error("after call without its before call", id);
    return;
  }
  open_call = false;
  next_id = id + 1;
  if (kind != pending.kind || opInp != pending.inputs || opOut != pending.outputs ||
      !std::equal(pending.addr.begin(), pending.addr.end(), opAddr) ||
      !std::equal(pending.size.begin(), pending.size.end(), opSize))
    error("after call differs from its before call (kind, counts, addresses or sizes)", id);
  for (int i = 0; i < opOut; i++)
    dump(dump_base + i, opAddr[opInp + i], opSize[opInp + i]);
  dump_base += opOut + opInp;
}

}  // extern "C"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <digit.png>\n", argv[0]);
    return 2;
  }
  float *input = reinterpret_cast<float *>(GLOW_GET_ADDR(mutable_weight, LENET_MNIST_data));
  const float *output = reinterpret_cast<float *>(GLOW_GET_ADDR(mutable_weight, LENET_MNIST_softmax));
  char err[512];
  if (png_image_read(argv[1], 1, kSide, kSide, false, input, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  int rc = lenet_mnist(constant_weight, mutable_weight, activations);
  if (open_call)
    error("the last instruction's after call is missing", pending.id);
  int best = 0;
  for (int k = 1; k < kDigits; k++)
    if (output[k] > output[best])
      best = k;
  printf("Number of instructions: %d\nNumber of data dumps: %d\nInstrumentation errors: %d\n", next_id, dumps,
         errors);
  printf("Image: %s\nResult: %d\nConfidence: %f\n", argv[1], best, output[best]);
  return rc == GLOW_SUCCESS && errors == 0 ? 0 : 1;
}
