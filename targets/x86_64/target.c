#include "target.h"

extern const unsigned char glow_kernels_x86_64[];
extern const size_t glow_kernels_x86_64_size;

static const char *const arches[] = {"x86_64", NULL};

/* VNNI (x86_64/qdot.h): an add of a vpmaddwd pattern becomes vpdpwssd exactly
 * where vpdpbusd is there too, in 256-bit registers (AVX-VNNI, or AVX512-VNNI
 * with AVX512VL) or in 512-bit ones (AVX512-VNNI). Without VNNI, the same
 * patterns tell where vpmaddwd takes 256-bit registers (AVX2) and 512-bit ones
 * (AVX512BW): x86_madd256 and x86_madd512, for glow_qdot2. */
static const char probe_vnni256[] =
    "define <8 x i32> @probe(<8 x i32> %acc, <16 x i16> %a, <16 x i16> %b) {\n"
    "  %ae = shufflevector <16 x i16> %a, <16 x i16> poison, <8 x i32> <i32 0, i32 2, i32 4, i32 6, "
    "i32 8, i32 10, i32 12, i32 14>\n"
    "  %ao = shufflevector <16 x i16> %a, <16 x i16> poison, <8 x i32> <i32 1, i32 3, i32 5, i32 7, "
    "i32 9, i32 11, i32 13, i32 15>\n"
    "  %be = shufflevector <16 x i16> %b, <16 x i16> poison, <8 x i32> <i32 0, i32 2, i32 4, i32 6, "
    "i32 8, i32 10, i32 12, i32 14>\n"
    "  %bo = shufflevector <16 x i16> %b, <16 x i16> poison, <8 x i32> <i32 1, i32 3, i32 5, i32 7, "
    "i32 9, i32 11, i32 13, i32 15>\n"
    "  %aex = sext <8 x i16> %ae to <8 x i32>\n"
    "  %aox = sext <8 x i16> %ao to <8 x i32>\n"
    "  %bex = sext <8 x i16> %be to <8 x i32>\n"
    "  %box = sext <8 x i16> %bo to <8 x i32>\n"
    "  %m0 = mul nsw <8 x i32> %aex, %bex\n"
    "  %m1 = mul nsw <8 x i32> %aox, %box\n"
    "  %s = add nsw <8 x i32> %m0, %m1\n"
    "  %r = add <8 x i32> %acc, %s\n"
    "  ret <8 x i32> %r\n"
    "}\n";

static const char probe_vnni512[] =
    "define <16 x i32> @probe(<16 x i32> %acc, <32 x i16> %a, <32 x i16> %b) #0 {\n"
    "  %ae = shufflevector <32 x i16> %a, <32 x i16> poison, <16 x i32> <i32 0, i32 2, i32 4, i32 6, "
    "i32 8, i32 10, i32 12, i32 14, i32 16, i32 18, i32 20, i32 22, i32 24, i32 26, i32 28, i32 30>\n"
    "  %ao = shufflevector <32 x i16> %a, <32 x i16> poison, <16 x i32> <i32 1, i32 3, i32 5, i32 7, "
    "i32 9, i32 11, i32 13, i32 15, i32 17, i32 19, i32 21, i32 23, i32 25, i32 27, i32 29, i32 31>\n"
    "  %be = shufflevector <32 x i16> %b, <32 x i16> poison, <16 x i32> <i32 0, i32 2, i32 4, i32 6, "
    "i32 8, i32 10, i32 12, i32 14, i32 16, i32 18, i32 20, i32 22, i32 24, i32 26, i32 28, i32 30>\n"
    "  %bo = shufflevector <32 x i16> %b, <32 x i16> poison, <16 x i32> <i32 1, i32 3, i32 5, i32 7, "
    "i32 9, i32 11, i32 13, i32 15, i32 17, i32 19, i32 21, i32 23, i32 25, i32 27, i32 29, i32 31>\n"
    "  %aex = sext <16 x i16> %ae to <16 x i32>\n"
    "  %aox = sext <16 x i16> %ao to <16 x i32>\n"
    "  %bex = sext <16 x i16> %be to <16 x i32>\n"
    "  %box = sext <16 x i16> %bo to <16 x i32>\n"
    "  %m0 = mul nsw <16 x i32> %aex, %bex\n"
    "  %m1 = mul nsw <16 x i32> %aox, %box\n"
    "  %s = add nsw <16 x i32> %m0, %m1\n"
    "  %r = add <16 x i32> %acc, %s\n"
    "  ret <16 x i32> %r\n"
    "}\n"
    "attributes #0 = { \"min-legal-vector-width\"=\"512\" }\n";

/* Kernels get zmm registers: a 512-bit add is done in them (not on CPUs without
 * AVX-512). LLVM's preference for 256-bit vectors on Intel's AVX-512 CPUs
 * (-mcpu=icelake-server, sapphirerapids, x86-64-v4) rules out zmm only in functions
 * whose min-legal-vector-width says so; the probe, like the steps and the kernels
 * (codegen.c's prepare_kernels), has none. */
static const char probe_zmm[] = "define void @probe(ptr %p) {\n"
                                "  %a = load <16 x i32>, ptr %p\n"
                                "  %r = add <16 x i32> %a, %a\n"
                                "  store <16 x i32> %r, ptr %p\n"
                                "  ret void\n"
                                "}\n";

/* AVX512-VBMI (x86_64/qdot.h: glow_q_lookup64): a byte permutation across the whole
 * register is one vpermb only there (icelake, sapphirerapids, znver4; not
 * skylake-avx512, cascadelake or x86-64-v4). */
static const char probe_vbmi[] = "define void @probe(ptr %p) {\n"
                                 "  %a = load <64 x i8>, ptr %p\n"
                                 "  %s = shufflevector <64 x i8> %a, <64 x i8> poison, <64 x i32> <"
    "i32 22, i32 12, i32 52, i32 3, i32 19, i32 5, i32 60, i32 58, i32 2, i32 33, i32 10, i32 8, i32 29, i32 26, i32 25, i32 9, "
    "i32 44, i32 18, i32 62, i32 11, i32 47, i32 40, i32 15, i32 39, i32 56, i32 57, i32 32, i32 23, i32 49, i32 43, i32 21, i32 45, "
    "i32 42, i32 34, i32 35, i32 46, i32 20, i32 61, i32 37, i32 14, i32 63, i32 53, i32 0, i32 38, i32 27, i32 50, i32 1, i32 55, "
    "i32 6, i32 13, i32 24, i32 41, i32 30, i32 28, i32 59, i32 31, i32 7, i32 16, i32 4, i32 48, i32 51, i32 54, i32 36, i32 17>\n"
                                 "  store <64 x i8> %s, ptr %p\n"
                                 "  ret void\n"
                                 "}\n";

static const glow_target_probe probes[] = {
    {"x86_vnni256", probe_vnni256, "vpdpwssd"},
    {"x86_vnni512", probe_vnni512, "vpdpwssd\t%zmm"},
    {"x86_zmm", probe_zmm, "%zmm"}, /* conv_tile_probe */
    {"x86_madd256", probe_vnni256, "vpmaddwd\t%ymm"},
    {"x86_madd512", probe_vnni512, "vpmaddwd\t%zmm"},
    {"x86_vbmi", probe_vbmi, "vpermb\t"},
    {NULL, NULL, NULL},
};

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
    .probes = probes,
    /* In zmm registers the conv tiles take 4 blocks (glow_qdot_wide() in qdot.h) */
    .conv_tile_blocks = 4,
    .conv_tile_probe = &probes[2],
    .prefer_vector_width = "512", /* Sapphire Rapids: x * sigmoid(x) over 1.2M floats 1.33 -> 1.04 ms */
    .conv_winograd = 1,
    /* Zen 5, one thread, inside resnet18 and googlenet (each step's best of 50 runs): 256 -> 256
     * on 14 x 14 1.76 ms by Winograd, 1.10 direct (alone, weights in cache: 0.81 and 1.09);
     * 144 -> 288 1.30 and 0.77; but 32 -> 128 on 27 x 27 0.185 and 0.248 (squeezenet1_1), 128 ->
     * 128 on 28 x 28 0.87 and 0.84. Not measured on Intel's two-FMA AVX-512 cores. */
    .fma512_cpus = "znver5",
};
