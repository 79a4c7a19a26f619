/* Classifies the ten 8x8 digits of examples/digits on a Cortex-M with no
 * operating system, printing what the host example prints, each sample's
 * output bytes (to compare with the same bundle compiled for another machine)
 * and, run with "icount" on the command line, the instructions per inference.
 *
 * The bundle (float, or int8 from a quantization profile: its input and
 * output stay float) is compiled with -weights=embedded: its constant weights
 * are in digits.o (read-only, so in flash) and the entry function ignores its
 * first argument. The two writable areas are static arrays sized by the static
 * API's macros; nothing is allocated. */
#include <stddef.h>

#include "board.h"
#include "digits.h"
#include "report.h"
#include "samples.h"

#ifndef DIGITS_CONSTANT_WEIGHTS_EMBEDDED
#error "digits.onnx must be compiled with -weights=embedded (add_glow_bundle(... WEIGHTS embedded))"
#endif

#define NUM_SAMPLES (int)(sizeof glow_digits_samples / sizeof glow_digits_samples[0])
#define NUM_PIXELS (int)(sizeof glow_digits_samples[0] / sizeof glow_digits_samples[0][0])
#define NUM_CLASSES 10

static GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) uint8_t mutableWeight[DIGITS_MUTABLE_MEM_SIZE];
static GLOW_MEM_ALIGN(DIGITS_MEM_ALIGN) uint8_t activations[DIGITS_ACTIVATIONS_MEM_SIZE];

int main(void) {
  float *in = (float *)GLOW_GET_ADDR(mutableWeight, DIGITS_input);
  const float *logits = (const float *)GLOW_GET_ADDR(mutableWeight, DIGITS_output);
  int correct = 0;
  uint64_t ticks = 0;
  for (int s = 0; s < NUM_SAMPLES; s++) {
    for (int i = 0; i < NUM_PIXELS; i++)
      in[i] = glow_digits_samples[s][i];
    uint64_t t0 = board_ticks();
    int status = digits(NULL, mutableWeight, activations);
    ticks += board_ticks() - t0;
    if (status != GLOW_SUCCESS) {
      board_print("digits: inference failed\n");
      return 1;
    }
    int best = 0;
    for (int k = 1; k < NUM_CLASSES; k++)
      if (logits[k] > logits[best])
        best = k;
    correct += best == glow_digits_labels[s];
    board_print("sample ");
    board_print_uint((uint32_t)s);
    board_print(": predicted ");
    board_print_uint((uint32_t)best);
    board_print(" (label ");
    board_print_uint((uint32_t)glow_digits_labels[s]);
    board_print(")\n");
    report_bytes("output", logits, NUM_CLASSES * sizeof *logits);
  }
  board_print_uint((uint32_t)correct);
  board_print(" of ");
  board_print_uint(NUM_SAMPLES);
  board_print(" correct\nstack: ");
  board_print_uint(board_stack_used());
  board_print(" of ");
  board_print_uint(board_stack_size());
  board_print(" bytes used\n");
  report_ticks(ticks, NUM_SAMPLES);
  return 0;
}
