#include "target.h"

extern const unsigned char glow_kernels_cuda[], glow_cuda_host_x86_64[], glow_cuda_host_aarch64[];
extern const size_t glow_kernels_cuda_size, glow_cuda_host_x86_64_size, glow_cuda_host_aarch64_size;

static const char *const arches[] = {"nvptx64", NULL};

static const glow_target_host hosts[] = {
    {"x86_64-unknown-linux-gnu", glow_cuda_host_x86_64, &glow_cuda_host_x86_64_size},
    {"aarch64-unknown-linux-gnu", glow_cuda_host_aarch64, &glow_cuda_host_aarch64_size},
    {NULL, NULL, NULL},
};

/* PTX ISA 7.8 (CUDA 11.8 drivers and later) has every sm_ from sm_50 to sm_90;
 * LLVM would otherwise write 6.0, which ptxas refuses for sm_80 and later.
 * -mattr=+ptx80 (or higher) for sm_90a. */
const glow_target glow_target_cuda = {
    .version = GLOW_TARGET_INTERFACE_VERSION,
    .name = "cuda",
    .arches = arches,
    .kernel_triple = "nvptx64-nvidia-cuda",
    .default_cpu = "sm_80",
    .default_features = "+ptx78",
    .cpu_examples = "sm_70, sm_80, sm_86, sm_89, sm_90",
    .bitcode = glow_kernels_cuda,
    .bitcode_size = &glow_kernels_cuda_size,
    .hosts = hosts,
    .stack_panel_floats = 2048, /* as GLOW_STACK_PANEL_FLOATS in cuda/target.cmake */
};
