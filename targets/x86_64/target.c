#include "target.h"

extern const unsigned char glow_kernels_x86_64[];
extern const size_t glow_kernels_x86_64_size;

static const char *const arches[] = {"x86_64", NULL};

const glow_target glow_target_x86_64 = {
    .version = GLOW_TARGET_INTERFACE_VERSION,
    .name = "x86_64",
    .arches = arches,
    .kernel_triple = "x86_64-unknown-linux-gnu",
    .default_cpu = "x86-64-v2",
    .default_features = "",
    .cpu_examples = "x86-64-v3, skylake-avx512, znver4, native",
    .bitcode = glow_kernels_x86_64,
    .bitcode_size = &glow_kernels_x86_64_size,
};
