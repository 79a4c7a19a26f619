/* The kernel harness's board side (startup.c), for the program run-kernels.py writes. */
#ifndef GLOW_KERNEL_HARNESS_H
#define GLOW_KERNEL_HARNESS_H

#include <stddef.h>
#include <stdint.h>

void h_putc(char c);
void h_print(const char *s);
void h_print_uint(uint64_t v);
void h_print_hex(const uint8_t *p, size_t n);
_Noreturn void h_exit(int status);
/* SysTick at the CPU clock, from h_ticks_start(): under -icount, the virtual clock. */
void h_ticks_start(void);
uint64_t h_ticks(void);
/* About 2 n instructions. */
void h_spin(uint32_t n);

#endif
