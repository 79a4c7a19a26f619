/* examples/cortex-m's board.h on the host, with stdio: the programs main.c and
 * kws.c linked with the same bundle compiled for the host print the lines the
 * board must print (run-cortex-m.sh compares them). No stack paint, no clock. */
#include <stdio.h>
#include <stdlib.h>

#include "board.h"

void board_print(const char *s) { fputs(s, stdout); }
void board_print_uint(uint32_t v) { printf("%lu", (unsigned long)v); }
void board_print_hex(uint32_t v) { printf("0x%lx", (unsigned long)v); }

_Noreturn void board_exit(int status) {
  fflush(stdout);
  exit(status);
}

int board_arg(const char *word) {
  (void)word;
  return 0;
}

uint32_t board_stack_used(void) { return 0; }
uint32_t board_stack_size(void) { return 0; }
uint64_t board_ticks(void) { return 0; }
uint32_t board_tick_hz(void) { return 1; }
