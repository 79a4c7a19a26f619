/* -instrument-ir from a program's side: the digits bundle (static API) calls
 * glow_instrument_before and glow_instrument_after around every step. Checks that
 * the calls alternate before/after with the same id, kind and operands, the ids
 * counting up from 0, every operand lying inside one of the three areas, the
 * first step reading the header's input and the last writing its output; prints
 * "step <id> kind <kind> in <n> out <n> sizes <s>..." per step for
 * check-glow-debug.py to hold against instrument-ir.info. Given a folder, also writes
 * the operands there as -instrument-debug=rawbin numbers its files (each step's
 * outputs, then its inputs): inputs before the step, outputs after it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digits.h"

GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) static uint8_t constant_weight[DIGITS_CONSTANT_MEM_SIZE];
GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) static uint8_t mutable_weight[DIGITS_MUTABLE_MEM_SIZE];
GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) static uint8_t activations[DIGITS_ACTIVATIONS_MEM_SIZE];

static int failures, next_id, open_id = -1, open_kind, open_inp, open_out;
static uint8_t *open_addr[64];
static int open_size[64];
static uint8_t *last_out_addr;
static int last_out_size;

static void fail(const char *what, int id) {
  printf("FAIL: step %d: %s\n", id, what);
  failures++;
}

static const char *dump_dir;
static int dump_base; /* the number of the step's first file */

static void dump(int file, const uint8_t *data, int size) {
  char path[1024];
  snprintf(path, sizeof path, "%s/data%04d.bin", dump_dir, file);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, (size_t)size, f) != (size_t)size || fclose(f))
    fail("cannot write a dump", file);
}

static int inside(const uint8_t *p, int size) {
  const uint8_t *base[3] = {constant_weight, mutable_weight, activations};
  size_t len[3] = {sizeof constant_weight, sizeof mutable_weight, sizeof activations};
  for (int a = 0; a < 3; a++)
    if (p >= base[a] && size >= 0 && p + size <= base[a] + len[a])
      return 1;
  return 0;
}

void glow_instrument_before(int id, int kind, int opInp, int opOut, uint8_t **opAddr, int *opSize) {
  if (open_id >= 0)
    fail("before called again without after", id);
  if (id != next_id)
    fail("ids out of order", id);
  if (opInp + opOut > 64 || opInp < 0 || opOut < 1) {
    fail("operand counts out of range", id);
    return;
  }
  printf("step %d kind %d in %d out %d sizes", id, kind, opInp, opOut);
  for (int k = 0; k < opInp + opOut; k++) {
    printf(" %d", opSize[k]);
    if (!inside(opAddr[k], opSize[k]))
      fail("an operand outside the bundle's areas", id);
    open_addr[k] = opAddr[k];
    open_size[k] = opSize[k];
  }
  printf("\n");
  for (int k = 0; dump_dir && k < opInp; k++)
    dump(dump_base + opOut + k, opAddr[k], opSize[k]);
  if (id == 0 && (opAddr[0] != GLOW_GET_ADDR(mutable_weight, DIGITS_input) || opSize[0] != 64 * 4))
    fail("the first step's first input is not the header's input", id);
  open_id = id;
  open_kind = kind;
  open_inp = opInp;
  open_out = opOut;
}

void glow_instrument_after(int id, int kind, int opInp, int opOut, uint8_t **opAddr, int *opSize) {
  if (id != open_id || kind != open_kind || opInp != open_inp || opOut != open_out) {
    fail("after does not match before", id);
    return;
  }
  for (int k = 0; k < opInp + opOut; k++)
    if (opAddr[k] != open_addr[k] || opSize[k] != open_size[k])
      fail("after's operands differ from before's", id);
  for (int k = 0; dump_dir && k < opOut; k++)
    dump(dump_base + k, opAddr[opInp + k], opSize[opInp + k]);
  dump_base += opInp + opOut;
  last_out_addr = opAddr[opInp];
  last_out_size = opSize[opInp];
  open_id = -1;
  next_id++;
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: %s <digits.weights.bin> [dump folder]\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f || fread(constant_weight, 1, sizeof constant_weight, f) != sizeof constant_weight) {
    fprintf(stderr, "%s: cannot read %zu bytes of weights\n", argv[1], sizeof constant_weight);
    return 1;
  }
  fclose(f);
  dump_dir = argc == 3 ? argv[2] : NULL;
  if (digits(constant_weight, mutable_weight, activations) != GLOW_SUCCESS)
    fail("the entry failed", -1);
  if (open_id >= 0)
    fail("before without after", open_id);
  if (next_id == 0)
    fail("no callback was called", -1);
  else if (last_out_addr != GLOW_GET_ADDR(mutable_weight, DIGITS_output) || last_out_size != 10 * 4)
    fail("the last step's output is not the header's output", next_id - 1);
  printf("%d steps, %d failures\n", next_id, failures);
  return failures != 0;
}
