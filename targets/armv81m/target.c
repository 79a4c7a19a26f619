#include "arm-probes.h"
#include "target.h"

extern const unsigned char glow_kernels_armv81m[];
extern const size_t glow_kernels_armv81m_size;

static const char *const arches[] = {"thumbv8.1m.main", NULL};
static const char *const cpus[] = {"cortex-m55", "cortex-m85", NULL};

static const glow_target_probe probes[] = {
    {"arm_dsp", glow_arm_probe_dsp, "smlabb"},
    {"arm_mve", glow_arm_probe_mve, "vadd.i8"},
    {NULL, NULL, NULL},
};

/* Cortex-M55/M85 (Armv8.1-M Mainline) with MVE (Helium) and its FPU; -mattr=-mve for parts
 * built without MVE. */
const glow_target glow_target_armv81m = {
    .version = GLOW_TARGET_INTERFACE_VERSION,
    .name = "armv81m",
    .arches = arches,
    .kernel_triple = "thumbv8.1m.main-none-eabihf",
    .default_cpu = "cortex-m55",
    .default_features = "",
    .cpu_examples = "cortex-m55, cortex-m85",
    .cpus = cpus,
    .glow_triple = "thumbv8.1m.main-none-eabihf",
    .glow_float_abi = "soft",
    .arm_float_abi = 1,
    .bitcode = glow_kernels_armv81m,
    .bitcode_size = &glow_kernels_armv81m_size,
    .probes = probes,
};
