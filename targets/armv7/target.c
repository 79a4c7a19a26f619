#include "target.h"

extern const unsigned char glow_kernels_armv7[];
extern const size_t glow_kernels_armv7_size;

static const char *const arches[] = {"armv7", "armv7a", NULL};
static const char *const cpus[] = {"generic",    "cortex-a5",  "cortex-a7",  "cortex-a8",  "cortex-a9",
                                   "cortex-a12", "cortex-a15", "cortex-a17", "cortex-a32", "cortex-a35",
                                   "cortex-a53", "cortex-a55", "cortex-a57", "cortex-a72", NULL};

/* 32-bit Arm Linux (Raspberry Pi OS 32-bit, Debian armhf, Cortex-A7/A9 boards): Armv7-A with
 * NEON and VFPv3, the hard-float ABI (gnueabihf). The baseline is NEON without VFPv4's fused
 * multiply-add, which the Cortex-A9 lacks; -mcpu=cortex-a7 (or native) adds it. */
const glow_target glow_target_armv7 = {
    .version = GLOW_TARGET_INTERFACE_VERSION,
    .name = "armv7",
    .arches = arches,
    .kernel_triple = "armv7-linux-gnueabihf",
    .default_cpu = "generic",
    .default_features = "+neon",
    .cpu_examples = "cortex-a7, cortex-a9, cortex-a53",
    .cpus = cpus,
    .glow_triple = "armv7-linux-gnueabihf",
    .arm_float_abi = 1,
    .bitcode = glow_kernels_armv7,
    .bitcode_size = &glow_kernels_armv7_size,
};
