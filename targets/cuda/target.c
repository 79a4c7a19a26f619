#include <stdio.h>
#include <string.h>

#include "common/kernel-abi.h" /* glow_abi_rnn */
#include "target.h"

extern const unsigned char glow_kernels_cuda[], glow_cuda_host_x86_64[], glow_cuda_host_aarch64[];
extern const size_t glow_kernels_cuda_size, glow_cuda_host_x86_64_size, glow_cuda_host_aarch64_size;

static const char *const arches[] = {"nvptx64", NULL};

static const glow_target_host hosts[] = {
    {"x86_64-unknown-linux-gnu", glow_cuda_host_x86_64, &glow_cuda_host_x86_64_size},
    {"aarch64-unknown-linux-gnu", glow_cuda_host_aarch64, &glow_cuda_host_aarch64_size},
    {NULL, NULL, NULL},
};

/* Steps a GPU runs: not a call of the bundle's caller (a host function), and not an RNN
 * whose state is over the kernel's fixed buffers (GLOW_NO_VLA in rnn.c): half a panel for
 * a direction's state and one for a block of input products. */
static int supports_op(const glow_target *t, const glow_target_step *s, char *why, size_t cap) {
  if (s->external) {
    snprintf(why, cap, "calls %s, a function of the bundle's caller, which a GPU step cannot (%s); compile the "
             "model for a CPU target", s->kernel, t->kernel_triple);
    return 0;
  }
  if (strcmp(s->kernel, "glow_k_rnn_f32"))
    return 1;
  const glow_abi_rnn *a = (const glow_abi_rnn *)s->params;
  int64_t kind = a->kind, H = a->H, G = kind == 2 ? 4 : kind == 1 ? 3 : 1;
  int64_t room = t->stack_panel_floats / 2;
  int64_t most = room / (3 + G) < room / G ? room / (3 + G) : room / G;
  if (H <= most)
    return 1;
  snprintf(why, cap, "hidden size %lld is over the %lld this op takes on a GPU (%s), whose kernels have fixed "
           "buffers; compile the model for a CPU target", (long long)H, (long long)most, t->kernel_triple);
  return 0;
}

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
    .supports_op = supports_op,
};
