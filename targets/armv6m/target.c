#include "target.h"

extern const unsigned char glow_kernels_armv6m[];
extern const size_t glow_kernels_armv6m_size;

static const char *const arches[] = {"thumbv6m", NULL};
static const char *const cpus[] = {"cortex-m0", "cortex-m0plus", "cortex-m1", "sc000", NULL};

/* Cortex-M0/M0+/M1 (Armv6-M): no FPU, no DSP, no hardware divide. Floats are computed by
 * libgcc's software routines (__aeabi_fadd, ...), passed in core registers (eabi). */
const glow_target glow_target_armv6m = {
    .version = GLOW_TARGET_INTERFACE_VERSION,
    .name = "armv6m",
    .arches = arches,
    .kernel_triple = "thumbv6m-none-eabi",
    .default_cpu = "cortex-m0",
    .default_features = "",
    .cpu_examples = "cortex-m0, cortex-m0plus",
    .cpus = cpus,
    .glow_triple = "thumbv6m-none-eabi",
    .arm_float_abi = 1,
    .bitcode = glow_kernels_armv6m,
    .bitcode_size = &glow_kernels_armv6m_size,
};
