#include "arm-probes.h"
#include "target.h"

extern const unsigned char glow_kernels_armv8m[];
extern const size_t glow_kernels_armv8m_size;

static const char *const arches[] = {"thumbv8m.main", NULL};
static const char *const cpus[] = {"cortex-m33", "cortex-m35p", NULL};

static const glow_target_probe probes[] = {
    {"arm_dsp", glow_arm_probe_dsp, "smlabb"},
    {NULL, NULL, NULL},
};

/* Cortex-M33/M35P (Armv8-M Mainline): single-precision FPU and the DSP extension, both optional
 * in silicon (-mattr=-dsp, -float-abi=none for parts without them). */
const glow_target glow_target_armv8m = {
    .version = GLOW_TARGET_INTERFACE_VERSION,
    .name = "armv8m",
    .arches = arches,
    .kernel_triple = "thumbv8m.main-none-eabihf",
    .default_cpu = "cortex-m33",
    .default_features = "",
    .cpu_examples = "cortex-m33, cortex-m35p",
    .cpus = cpus,
    .glow_triple = "thumbv8m.main-none-eabihf",
    .glow_float_abi = "soft",
    .arm_float_abi = 1,
    .bitcode = glow_kernels_armv8m,
    .bitcode_size = &glow_kernels_armv8m_size,
    .probes = probes,
};
