#include "target.h"

extern const unsigned char glow_kernels_riscv64[];
extern const size_t glow_kernels_riscv64_size;

static const char *const arches[] = {"riscv64", NULL};

const glow_target glow_target_riscv64 = {
    .version = GLOW_TARGET_INTERFACE_VERSION,
    .name = "riscv64",
    .arches = arches,
    .kernel_triple = "riscv64-linux-gnu",
    .default_cpu = "generic-rv64",
    /* RV64GC, the Linux baseline; the kernel bitcode's lp64d ABI needs the D extension. */
    .default_features = "+m,+a,+f,+d,+c",
    .cpu_examples = "sifive-u74, sifive-x280, spacemit-x60 (add vectors with -mattr=+v)",
    .bitcode = glow_kernels_riscv64,
    .bitcode_size = &glow_kernels_riscv64_size,
};
