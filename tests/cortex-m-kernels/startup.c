/* Bare-metal startup for the kernel harness (run-kernels.py) on QEMU's MPS2/MPS3
 * boards, Cortex-M0 to M55: the vector table, Reset_Handler (FPU and MVE on,
 * .data and .bss set up), SysTick as a counter of the virtual clock, output
 * and exit through Arm semihosting, and the C library's memory functions that
 * bundles may call. The linker script (written by run-kernels.py for the board)
 * provides the symbols below. */
#include <stddef.h>
#include <stdint.h>

#include "harness.h"

extern uint32_t __stack_top[];
extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
int main(void);

#define REG(addr) (*(volatile uint32_t *)(addr))
#define SCB_CPACR REG(0xE000ED88)
#define SYST_CSR REG(0xE000E010)
#define SYST_RVR REG(0xE000E014)
#define SYST_CVR REG(0xE000E018)

void Reset_Handler(void);
void Fault_Handler(void);
void SysTick_Handler(void);

__attribute__((section(".isr_vector"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))__stack_top, Reset_Handler, Fault_Handler, Fault_Handler, Fault_Handler, Fault_Handler,
    Fault_Handler, 0, 0, 0, 0, Fault_Handler, Fault_Handler, 0, Fault_Handler, SysTick_Handler,
};

enum { SYS_WRITE0 = 0x04, SYS_EXIT_EXTENDED = 0x20 };

static uint32_t semihost(uint32_t op, const void *arg) {
  register uint32_t r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

static char line[256];
static unsigned used;

static void flush(void) {
  line[used] = '\0';
  if (used)
    semihost(SYS_WRITE0, line);
  used = 0;
}

void h_putc(char c) {
  line[used++] = c;
  if (c == '\n' || used == sizeof line - 1)
    flush();
}

void h_print(const char *s) {
  while (*s)
    h_putc(*s++);
}

void h_print_uint(uint64_t v) {
  char buf[21], *p = buf + sizeof buf;
  *--p = '\0';
  do {
    *--p = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  h_print(p);
}

void h_print_hex(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h_putc("0123456789abcdef"[p[i] >> 4]);
    h_putc("0123456789abcdef"[p[i] & 15]);
  }
}

_Noreturn void h_exit(int status) {
  flush();
  uint32_t args[2] = {0x20026u /* ADP_Stopped_ApplicationExit */, (uint32_t)status};
  semihost(SYS_EXIT_EXTENDED, args);
  for (;;)
    ;
}

/* SysTick counts down from 2^24 - 1 at the CPU clock; its exception counts the wraps. */
static volatile uint32_t wraps;

void SysTick_Handler(void) { wraps++; }

void h_ticks_start(void) {
  SYST_RVR = 0xFFFFFFu;
  SYST_CVR = 0;
  SYST_CSR = 7u; /* enable, exception, CPU clock */
  while (SYST_CVR == 0) /* the first reload from 0 counts no wrap */
    ;
}

uint64_t h_ticks(void) {
  uint32_t w, v;
  do {
    w = wraps;
    v = SYST_CVR;
  } while (w != wraps);
  return ((uint64_t)w << 24) + (0xFFFFFFu - v);
}

/* 2 n + 2 instructions (and a few to call it): a known count against h_ticks. */
__attribute__((noinline)) void h_spin(uint32_t n) {
  __asm__ volatile(".syntax unified\n1:\n\tsubs %0, %0, #1\n\tbne 1b" : "+l"(n)::"cc");
}

void Reset_Handler(void) {
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
  SCB_CPACR |= 0xFu << 20; /* CP10, CP11: the FPU (and MVE) */
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  for (uint32_t *src = __data_load, *dst = __data_start; dst < __data_end;)
    *dst++ = *src++;
  for (uint32_t *dst = __bss_start; dst < __bss_end;)
    *dst++ = 0;
  h_exit(main());
}

void Fault_Handler(void) {
  uint32_t ipsr;
  __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
  h_print("\nfault: exception ");
  h_print_uint(ipsr & 0x1ff);
  h_print("\n");
  h_exit(128 + (int)(ipsr & 0x1ff));
}

/* What bundles may leave to the C library. */
void *memcpy(void *restrict d, const void *restrict s, size_t n) {
  uint8_t *dp = d;
  const uint8_t *sp = s;
  while (n--)
    *dp++ = *sp++;
  return d;
}

void *memmove(void *d, const void *s, size_t n) {
  uint8_t *dp = d;
  const uint8_t *sp = s;
  if (dp < sp)
    while (n--)
      *dp++ = *sp++;
  else
    while (n--)
      dp[n] = sp[n];
  return d;
}

void *memset(void *d, int c, size_t n) {
  uint8_t *dp = d;
  while (n--)
    *dp++ = (uint8_t)c;
  return d;
}
