#include "arm-probes.h"
#include "target.h"

extern const unsigned char glow_kernels_armv7em[];
extern const size_t glow_kernels_armv7em_size;

static const char *const arches[] = {"thumbv7em", NULL};
static const char *const cpus[] = {"cortex-m4", "cortex-m7", NULL};

static const glow_target_probe probes[] = {
    {"arm_dsp", glow_arm_probe_dsp, "smlabb"},
    {NULL, NULL, NULL},
};

const glow_target glow_target_armv7em = {
    .version = GLOW_TARGET_INTERFACE_VERSION,
    .name = "armv7em",
    .arches = arches,
    .kernel_triple = "thumbv7em-none-eabihf",
    .default_cpu = "cortex-m4",
    .default_features = "",
    .cpu_examples = "cortex-m4, cortex-m7",
    .cpus = cpus,
    .glow_triple = "thumbv7em-none-eabihf",
    .glow_float_abi = "soft",
    .arm_float_abi = 1,
    .bitcode = glow_kernels_armv7em,
    .bitcode_size = &glow_kernels_armv7em_size,
    .probes = probes,
};
