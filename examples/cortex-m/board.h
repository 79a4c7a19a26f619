/* What the Cortex-M examples need from the board: text to the host, an exit
 * status, the command line, the stack's high-water mark and a clock.
 * startup.c and semihost.c provide it for QEMU's boards (and, through a
 * debugger, for a real Cortex-M). */
#ifndef GLOWC_EXAMPLE_BOARD_H
#define GLOWC_EXAMPLE_BOARD_H

#include <stdint.h>

/* semihost.c: output is line-buffered and goes to the host at each '\n'. */
void board_print(const char *s);
void board_print_uint(uint32_t v);
void board_print_hex(uint32_t v);
/* Flushes the output and ends the program; the host's exit status is status. */
_Noreturn void board_exit(int status);
/* Nonzero when word is one of the words of the host's command line for the
 * program (qemu-system-arm -append "<words>"). */
int board_arg(const char *word);

/* startup.c: bytes of stack ever used (the stack is painted before main) and
 * the stack's size. */
uint32_t board_stack_used(void);
uint32_t board_stack_size(void);
/* SysTick ticks since reset (the core clock, board_tick_hz() per second). */
uint64_t board_ticks(void);
uint32_t board_tick_hz(void);

#endif
