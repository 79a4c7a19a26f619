/* What the example programs print besides their results: a tensor's bytes, to
 * compare with the same bundle compiled for another machine, and the cost of
 * an inference when QEMU counts instructions. */
#ifndef GLOWC_EXAMPLE_REPORT_H
#define GLOWC_EXAMPLE_REPORT_H

#include <stddef.h>
#include <stdint.h>

/* "<label>: <bytes in hex, in memory order>\n" */
void report_bytes(const char *label, const void *bytes, size_t size);

/* Run with "icount" on the command line (qemu-system-arm -icount shift=0
 * -append icount), prints the SysTick ticks and the instructions per
 * inference, ticks being the SysTick ticks that runs inferences took: with
 * shift=0 QEMU's virtual clock advances 1 ns per instruction, so SysTick at
 * f Hz ticks once every 10^9 / f instructions. Otherwise prints nothing, so
 * that the output does not depend on the host's speed. */
void report_ticks(uint64_t ticks, uint32_t runs);

#endif
