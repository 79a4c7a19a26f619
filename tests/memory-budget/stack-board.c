/* The stack one call of a bundle's entry point uses on a bare Cortex-M under QEMU's MPS2
 * boards, against the <NET>_STACK_SIZE the compiler wrote in its header: the stack is
 * painted, the entry (bundle "net", static API) is called once on zeroed inputs (and
 * zeroed constant weights unless they are embedded: the values do not move the stack),
 * and the lowest word it overwrote gives its high-water mark, measured from the stack
 * pointer at the call. Prints "stack: <used> <STACK_SIZE>" through semihosting and exits
 * with the entry's status. Self-contained: vectors, startup and output are here. */
#include <stdint.h>

#include "net.h"

#define PAINT 0x5afec0deu

extern uint32_t __stack_top[], __stack_bottom[], __data_load[], __data_start[], __data_end[], __bss_start[],
    __bss_end[];

static GLOW_MEM_ALIGN(NET_MEM_ALIGN) uint8_t mutable_area[NET_MUTABLE_MEM_SIZE];
static GLOW_MEM_ALIGN(NET_MEM_ALIGN) uint8_t activations[NET_ACTIVATIONS_MEM_SIZE];
#ifdef NET_CONSTANT_WEIGHTS_EMBEDDED
#define CONSTANT_AREA 0
#else
static GLOW_MEM_ALIGN(NET_MEM_ALIGN) uint8_t constant_area[NET_CONSTANT_MEM_SIZE];
#define CONSTANT_AREA constant_area
#endif

static uint32_t semihost(uint32_t op, const void *arg) {
  register uint32_t r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

static char *put_uint(char *p, uint32_t v) {
  char buf[11], *q = buf + sizeof buf;
  do
    *--q = (char)('0' + v % 10);
  while (v /= 10);
  while (q < buf + sizeof buf)
    *p++ = *q++;
  return p;
}

/* Not inlined: its own frame is above the stack pointer read before the call. */
__attribute__((noinline)) static int measure(uint32_t *used) {
  uint32_t *sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  for (volatile uint32_t *p = __stack_bottom; p < sp - 16;)
    *p++ = PAINT;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  int rc = net(CONSTANT_AREA, mutable_area, activations);
  const volatile uint32_t *p = __stack_bottom;
  while (p < sp && *p == PAINT)
    p++;
  *used = (uint32_t)((const char *)sp - (const char *)p);
  return rc;
}

void reset(void) {
#ifdef __ARM_FP /* the FPU on (CPACR: CP10, CP11 full access) before any float instruction */
  *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  for (uint32_t *s = __data_load, *d = __data_start; d < __data_end;)
    *d++ = *s++;
  for (uint32_t *d = __bss_start; d < __bss_end;)
    *d++ = 0;
  uint32_t used;
  int rc = measure(&used);
  char line[64] = "stack: ", *p = put_uint(line + 7, used);
  *p++ = ' ';
  p = put_uint(p, NET_STACK_SIZE);
  *p++ = '\n';
  *p = 0;
  semihost(0x04, line); /* SYS_WRITE0 */
  uint32_t exit_block[2] = {0x20026u, (uint32_t)rc}; /* ADP_Stopped_ApplicationExit, status */
  semihost(0x20, exit_block); /* SYS_EXIT_EXTENDED */
  for (;;)
    ;
}

static void fault(void) {
  semihost(0x04, "fault\n");
  uint32_t exit_block[2] = {0x20026u, 99};
  semihost(0x20, exit_block);
  for (;;)
    ;
}

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))__stack_top, reset, fault, fault, fault, fault, fault, 0, 0, 0, 0, fault, fault, 0, fault, fault};
