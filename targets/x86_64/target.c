#include "target.h"

extern const unsigned char glow_kernels_x86_64[];
extern const size_t glow_kernels_x86_64_size;

const glow_target glow_target_x86_64 = {
    .version = GLOW_TARGET_INTERFACE_VERSION,
    .name = "x86_64",
    .arch = "x86_64",
    .kernel_triple = "x86_64-unknown-linux-gnu",
    .default_cpu = "x86-64-v2",
    .bitcode = glow_kernels_x86_64,
    .bitcode_size = &glow_kernels_x86_64_size,
};
