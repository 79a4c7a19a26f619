/* Startup for a Cortex-M4F (or M7) with no operating system and no C library
 * startup files: the vector table, Reset_Handler, and fault handlers that say
 * what went wrong and exit. The linker script (mps2.ld) provides the
 * symbols below and puts the stack at the bottom of RAM, so an overflow runs
 * into the MPU guard region set up here instead of into .data. */
#include <stdint.h>

#include "board.h"

extern uint32_t __stack_bottom[], __stack_top[];
extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
int main(void);

#define REG(addr) (*(volatile uint32_t *)(addr))
#define SCB_SHCSR REG(0xE000ED24)
#define SCB_CFSR REG(0xE000ED28)
#define SCB_HFSR REG(0xE000ED2C)
#define SCB_MMFAR REG(0xE000ED34)
#define SCB_BFAR REG(0xE000ED38)
#define MPU_CTRL REG(0xE000ED94)
#define MPU_RBAR REG(0xE000ED9C)
#define MPU_RASR REG(0xE000EDA0)

#define STACK_PAINT 0x5aa5c33cu
/* The no-access region below the stack: 16 MB, so that a function whose frame
 * is larger than the space left (kernels keep panels of tens of KB on the
 * stack) still lands in it; on QEMU, writes there would otherwise vanish. */
#define GUARD_LOG2 24

void Reset_Handler(void);
void Fault_Handler(void);

/* Initial stack pointer, then the 15 system exceptions; no external interrupt
 * is enabled, so the table ends there. */
struct vector_table {
  uint32_t *stack_top;
  void (*handler[15])(void);
};
__attribute__((section(".isr_vector"), used)) static const struct vector_table vectors = {
    __stack_top,
    {Reset_Handler, Fault_Handler /* NMI */, Fault_Handler /* HardFault */, Fault_Handler /* MemManage */,
     Fault_Handler /* BusFault */, Fault_Handler /* UsageFault */, 0, 0, 0, 0, Fault_Handler /* SVCall */,
     Fault_Handler /* DebugMonitor */, 0, Fault_Handler /* PendSV */, Fault_Handler /* SysTick */},
};

_Noreturn void start(void);

/* The FPU is off at reset and the first floating-point instruction would
 * fault: grant CP10/CP11 full access in CPACR before any C code runs, since
 * the compiler may use FPU registers anywhere (even to copy .data). */
__attribute__((naked, noreturn)) void Reset_Handler(void) {
  __asm__ volatile("movw r0, #0xed88\n\t"
                   "movt r0, #0xe000\n\t"
                   "ldr r1, [r0]\n\t"
                   "orr r1, r1, #0xf00000\n\t"
                   "str r1, [r0]\n\t"
                   "dsb\n\t"
                   "isb\n\t"
                   "b start\n\t");
}

static void paint_stack(void) {
  volatile uint32_t *p = __stack_bottom, *sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  while (p < sp - 64)
    *p++ = STACK_PAINT;
}

static void guard_stack(void) {
  MPU_RBAR = ((uint32_t)__stack_bottom - (1u << GUARD_LOG2)) | 1u << 4; /* region 0, VALID */
  MPU_RASR = 1u << 28 | (GUARD_LOG2 - 1) << 1 | 1u;                     /* XN, no access, size, enable */
  MPU_CTRL = 1u << 2 | 1u;                                               /* default map elsewhere, enable */
  SCB_SHCSR |= 7u << 16; /* MemManage, BusFault and UsageFault get their own names */
  __asm__ volatile("dsb\n\tisb" ::: "memory");
}

_Noreturn void start(void) {
  for (uint32_t *src = __data_load, *dst = __data_start; dst < __data_end;)
    *dst++ = *src++;
  for (uint32_t *dst = __bss_start; dst < __bss_end;)
    *dst++ = 0;
  paint_stack();
  guard_stack();
  board_exit(main());
}

uint32_t board_stack_size(void) { return (uint32_t)((char *)__stack_top - (char *)__stack_bottom); }

uint32_t board_stack_used(void) {
  const volatile uint32_t *p = __stack_bottom;
  while (p < __stack_top && *p == STACK_PAINT)
    p++;
  return (uint32_t)((const char *)__stack_top - (const char *)p);
}

/* Every exception but reset: the faulting stack may be the overflowed one, so
 * report from a fresh stack at the top (the program ends anyway). */
__attribute__((naked)) void Fault_Handler(void) {
  __asm__ volatile("mrs r0, msp\n\t"
                   "mrs r1, ipsr\n\t"
                   "ldr r2, =__stack_top\n\t"
                   "mov sp, r2\n\t"
                   "b fault_report\n\t");
}

_Noreturn void fault_report(const uint32_t *frame, uint32_t ipsr);
_Noreturn void fault_report(const uint32_t *frame, uint32_t ipsr) {
  static const char *const names[] = {"?", "Reset", "NMI", "HardFault", "MemManage", "BusFault", "UsageFault"};
  uint32_t n = ipsr & 0x1ff, cfsr = SCB_CFSR;
  board_print("\nfault: ");
  if (n < sizeof names / sizeof *names) {
    board_print(names[n]);
  } else {
    board_print("exception ");
    board_print_uint(n);
  }
  board_print(", CFSR ");
  board_print_hex(cfsr);
  board_print(", HFSR ");
  board_print_hex(SCB_HFSR);
  if (cfsr & 1u << 7) { /* MMARVALID */
    board_print(", MMFAR ");
    board_print_hex(SCB_MMFAR);
  }
  if (cfsr & 1u << 15) { /* BFARVALID */
    board_print(", BFAR ");
    board_print_hex(SCB_BFAR);
  }
  if (frame >= __stack_bottom && frame + 8 <= __stack_top) {
    board_print(", PC ");
    board_print_hex(frame[6]);
    board_print(", LR ");
    board_print_hex(frame[5]);
    board_print("\n");
  } else {
    board_print(", SP ");
    board_print_hex((uint32_t)frame);
    board_print(": stack overflow (");
    board_print_uint(board_stack_size());
    board_print(" bytes of stack)\n");
  }
  board_exit(128 + (int)n);
}
