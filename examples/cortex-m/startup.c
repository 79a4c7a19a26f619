/* Startup for a Cortex-M0, M4F, M7, M33 or M55 with no operating system and no
 * C library startup files: the vector table, Reset_Handler, SysTick counting
 * (board_ticks) and fault handlers that say what went wrong and exit.
 *
 * The linker script (sections.ld) puts the stack at the bottom of RAM, so that
 * an overflow runs below RAM instead of into .data; what stops it there
 * depends on the architecture:
 *   Armv7-M (M4, M7): an MPU no-access region below RAM (MemManage fault).
 *   Armv8-M (M33, M55): the stack limit register MSPLIM (UsageFault, STKOF).
 *   Armv6-M (M0): nothing to set (no MPU on the nRF51, no stack limit): the
 *   board must have no memory below RAM, so that the overflowing store faults
 *   (HardFault, the only fault there is). */
#include <stdint.h>

#include "board.h"

#if defined(__ARM_ARCH_6M__)
#define ARMV6M 1
#elif defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define ARMV8M 1
#elif defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_7M__)
#define ARMV7M 1
#else
#error "startup.c: not an Armv6-M, Armv7-M or Armv8-M Mainline core"
#endif
#ifndef BOARD_CLOCK_HZ
#error "BOARD_CLOCK_HZ: the core clock in Hz, which SysTick counts (CMakeLists.txt sets it for each board)"
#endif

extern uint32_t __stack_bottom[], __stack_top[];
extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
int main(void);

#define REG(addr) (*(volatile uint32_t *)(addr))
#define SYST_CSR REG(0xE000E010)
#define SYST_RVR REG(0xE000E014)
#define SYST_CVR REG(0xE000E018)
#define SCB_ICSR REG(0xE000ED04)
#define SCB_SHCSR REG(0xE000ED24)
#define SCB_CFSR REG(0xE000ED28)
#define SCB_HFSR REG(0xE000ED2C)
#define SCB_MMFAR REG(0xE000ED34)
#define SCB_BFAR REG(0xE000ED38)
#define MPU_CTRL REG(0xE000ED94)
#define MPU_RBAR REG(0xE000ED9C)
#define MPU_RASR REG(0xE000EDA0)

#define ICSR_PENDSTSET (1u << 26)
#define CFSR_MMARVALID (1u << 7)
#define CFSR_BFARVALID (1u << 15)
#define CFSR_STKOF (1u << 20)
#define SYSTICK_MAX 0xffffffu

#define STACK_PAINT 0x5aa5c33cu
/* Armv7-M: the no-access region below the stack: 16 MB, so that a function
 * whose frame is larger than the space left (kernels keep panels of KBs on the
 * stack) still lands in it; on QEMU, writes there would otherwise vanish. */
#define GUARD_LOG2 24

void Reset_Handler(void);
void Fault_Handler(void);
void SysTick_Handler(void);

/* Initial stack pointer, then the 15 system exceptions (Armv6-M leaves 4-10
 * and 12 reserved); no external interrupt is enabled, so the table ends there. */
struct vector_table {
  uint32_t *stack_top;
  void (*handler[15])(void);
};
__attribute__((section(".isr_vector"), used)) static const struct vector_table vectors = {
    __stack_top,
    {Reset_Handler, Fault_Handler /* NMI */, Fault_Handler /* HardFault */, Fault_Handler /* MemManage */,
     Fault_Handler /* BusFault */, Fault_Handler /* UsageFault */, Fault_Handler /* SecureFault */, 0, 0, 0,
     Fault_Handler /* SVCall */, Fault_Handler /* DebugMonitor */, 0, Fault_Handler /* PendSV */, SysTick_Handler},
};

_Noreturn void start(void);

#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
/* The FPU (and MVE) is off at reset and the first floating-point instruction
 * would fault: grant CP10/CP11 full access in CPACR before any C code runs,
 * since the compiler may use FPU registers anywhere (even to copy .data). */
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
#else
void Reset_Handler(void) { start(); }
#endif

static void paint_stack(void) {
  volatile uint32_t *p = __stack_bottom, *sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  while (p < sp - 64)
    *p++ = STACK_PAINT;
}

static void guard_stack(void) {
#if ARMV7M
  MPU_RBAR = ((uint32_t)__stack_bottom - (1u << GUARD_LOG2)) | 1u << 4; /* region 0, VALID */
  MPU_RASR = 1u << 28 | (GUARD_LOG2 - 1) << 1 | 1u;                     /* XN, no access, size, enable */
  MPU_CTRL = 1u << 2 | 1u;                                               /* default map elsewhere, enable */
#elif ARMV8M
  __asm__ volatile("msr msplim, %0" ::"r"(__stack_bottom));
#endif
#if !ARMV6M
  SCB_SHCSR |= 7u << 16; /* MemManage, BusFault and UsageFault get their own names */
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
}

/* SysTick counts the core clock down from 2^24 - 1; its interrupt counts the
 * wraps. */
static volatile uint32_t systick_wraps;

void SysTick_Handler(void) { systick_wraps++; }

static void start_ticks(void) {
  SYST_RVR = SYSTICK_MAX;
  SYST_CVR = 0;
  SYST_CSR = 7; /* the core clock, the interrupt, enable */
  while (SYST_CVR == 0) /* it loads the reload value at its first tick */
    ;
}

uint64_t board_ticks(void) {
  __asm__ volatile("cpsid i" ::: "memory");
  uint32_t wraps = systick_wraps, now = SYST_CVR;
  if (SCB_ICSR & ICSR_PENDSTSET) { /* a wrap its interrupt has not counted yet */
    wraps++;
    now = SYST_CVR;
  }
  __asm__ volatile("cpsie i" ::: "memory");
  return ((uint64_t)wraps << 24) + (SYSTICK_MAX - now);
}

uint32_t board_tick_hz(void) { return BOARD_CLOCK_HZ; }

_Noreturn void start(void) {
  for (uint32_t *src = __data_load, *dst = __data_start; dst < __data_end;)
    *dst++ = *src++;
  for (uint32_t *dst = __bss_start; dst < __bss_end;)
    *dst++ = 0;
  paint_stack();
  guard_stack();
  start_ticks();
  board_exit(main());
}

uint32_t board_stack_size(void) { return (uint32_t)((char *)__stack_top - (char *)__stack_bottom); }

uint32_t board_stack_used(void) {
  const volatile uint32_t *p = __stack_bottom;
  while (p < __stack_top && *p == STACK_PAINT)
    p++;
  return (uint32_t)((const char *)__stack_top - (const char *)p);
}

/* Every exception but reset and SysTick: the faulting stack may be the
 * overflowed one, so report from a fresh stack at the top (the program ends
 * anyway). Thumb-1 instructions only, for Armv6-M. */
__attribute__((naked)) void Fault_Handler(void) {
  __asm__ volatile("mrs r0, msp\n\t"
                   "mrs r1, ipsr\n\t"
                   "ldr r2, =__stack_top\n\t"
                   "mov sp, r2\n\t"
                   "ldr r2, =fault_report\n\t"
                   "bx r2\n\t");
}

_Noreturn void fault_report(const uint32_t *frame, uint32_t ipsr);
_Noreturn void fault_report(const uint32_t *frame, uint32_t ipsr) {
  static const char *const names[] = {"?",         "Reset",    "NMI",        "HardFault",
                                      "MemManage", "BusFault", "UsageFault", "SecureFault"};
  uint32_t n = ipsr & 0x1ff, cfsr = 0;
  board_print("\nfault: ");
  if (n < sizeof names / sizeof *names) {
    board_print(names[n]);
  } else {
    board_print("exception ");
    board_print_uint(n);
  }
#if !ARMV6M /* Armv6-M has no fault status registers */
  cfsr = SCB_CFSR;
  board_print(", CFSR ");
  board_print_hex(cfsr);
  board_print(", HFSR ");
  board_print_hex(SCB_HFSR);
  if (cfsr & CFSR_MMARVALID) {
    board_print(", MMFAR ");
    board_print_hex(SCB_MMFAR);
  }
  if (cfsr & CFSR_BFARVALID) {
    board_print(", BFAR ");
    board_print_hex(SCB_BFAR);
  }
#endif
  /* Armv8-M's stack limit check faults before the stack pointer passes the
   * limit, so the frame is still inside the stack. */
  if (frame >= __stack_bottom && frame + 8 <= __stack_top && !(cfsr & CFSR_STKOF)) {
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
