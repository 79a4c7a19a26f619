/* Runs an int8 keyword-spotting network (a DS-CNN, TFLite) once on a Cortex-M
 * with no operating system and prints its outputs' bytes (to compare with the
 * same bundle compiled for another machine and with a TFLite runtime's) and,
 * run with "icount" on the command line, the instructions per inference.
 *
 * kws-data.h comes with the model (tests/cortex-m/make-models.py writes both):
 *   static const int8_t kws_input[...];      the input's int8 values
 *   #define KWS_INPUT_OFFSET KWS_<input>     its offset macro in kws.h
 *   #define KWS_OUTPUTS(X) X("<name>", KWS_<name>, <bytes>) ...   the outputs
 * The model's input and outputs stay int8 (TFLite's quantized tensors). */
#include <stddef.h>

#include "board.h"
#include "kws-data.h"
#include "kws.h"
#include "report.h"

#ifndef KWS_CONSTANT_WEIGHTS_EMBEDDED
#error "the model must be compiled with -weights=embedded (add_glow_bundle(... WEIGHTS embedded))"
#endif

static GLOW_MEM_ALIGN(KWS_MEM_ALIGN) uint8_t mutableWeight[KWS_MUTABLE_MEM_SIZE];
static GLOW_MEM_ALIGN(KWS_MEM_ALIGN) uint8_t activations[KWS_ACTIVATIONS_MEM_SIZE];

int main(void) {
  int8_t *in = (int8_t *)GLOW_GET_ADDR(mutableWeight, KWS_INPUT_OFFSET);
  for (size_t i = 0; i < sizeof kws_input; i++)
    in[i] = kws_input[i];
  uint64_t t0 = board_ticks();
  int status = kws(NULL, mutableWeight, activations);
  uint64_t ticks = board_ticks() - t0;
  if (status != GLOW_SUCCESS) {
    board_print("kws: inference failed\n");
    return 1;
  }
#define PRINT_OUTPUT(name, offset, bytes) report_bytes("output " name, GLOW_GET_ADDR(mutableWeight, offset), bytes);
  KWS_OUTPUTS(PRINT_OUTPUT)
  board_print("stack: ");
  board_print_uint(board_stack_used());
  board_print(" of ");
  board_print_uint(board_stack_size());
  board_print(" bytes used\n");
  report_ticks(ticks, 1);
  return 0;
}
