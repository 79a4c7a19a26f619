#include "target.h"

extern const unsigned char glow_kernels_aarch64[];
extern const size_t glow_kernels_aarch64_size;

static const char *const arches[] = {"aarch64", "arm64", NULL};

const glow_target glow_target_aarch64 = {
    .version = GLOW_TARGET_INTERFACE_VERSION,
    .name = "aarch64",
    .arches = arches,
    .kernel_triple = "aarch64-linux-gnu",
    .default_cpu = "generic", /* Armv8-A with NEON: every 64-bit Arm Linux board */
    .default_features = "",
    .cpu_examples = "cortex-a53, cortex-a72, cortex-a76, neoverse-n1, apple-m1",
    .bitcode = glow_kernels_aarch64,
    .bitcode_size = &glow_kernels_aarch64_size,
};
