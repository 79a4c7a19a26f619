#include "target.h"

extern const unsigned char glow_kernels_aarch64[];
extern const size_t glow_kernels_aarch64_size;

static const char *const arches[] = {"aarch64", "arm64", NULL};

/* The dot-product instructions (aarch64/qdot.h): a sum of 16 products of bytes becomes udot. */
static const char probe_dotprod[] = "define i32 @probe(<16 x i8> %a, <16 x i8> %b) {\n"
                                    "  %x = zext <16 x i8> %a to <16 x i32>\n"
                                    "  %y = zext <16 x i8> %b to <16 x i32>\n"
                                    "  %m = mul nuw nsw <16 x i32> %x, %y\n"
                                    "  %r = call i32 @llvm.vector.reduce.add.v16i32(<16 x i32> %m)\n"
                                    "  ret i32 %r\n"
                                    "}\n"
                                    "declare i32 @llvm.vector.reduce.add.v16i32(<16 x i32>)\n";

static const glow_target_probe probes[] = {
    {"a64_dotprod", probe_dotprod, "udot"},
    {NULL, NULL, NULL},
};

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
    .probes = probes,
    .conv_winograd = 1,
};
