/* Target descriptions: what the compiler knows about each target it can emit
 * bundles for. Each targets/<t>/target.c exports one `const glow_target`. */
#ifndef GLOW_TARGET_H
#define GLOW_TARGET_H

#include <stddef.h>
#include <stdint.h>

#define GLOW_TARGET_INTERFACE_VERSION 8

/* A property of the target machine that kernels test at model-compile time
 * (kernels are compiled once per target, for its baseline CPU): a kernel
 * declares `extern const int glow_target_<name>;` and codegen defines it, a
 * constant before optimization, as 1 when the target machine turns the probe
 * (LLVM IR of one function) into assembly containing `mnemonic`, else 0, so
 * the branches a kernel takes on it fold away and the other side (which may
 * use instructions this CPU lacks) is never compiled. E.g. "does an add of a
 * vpmaddwd pattern become vpdpwssd": the CPU has VNNI. */
typedef struct glow_target_probe {
  const char *name;     /* glow_target_<name> */
  const char *ir;       /* LLVM IR (textual) of one function */
  const char *mnemonic; /* looked for in the assembly */
} glow_target_probe;

/* A GPU target's host side (targets/cuda/launch.c) as bitcode for one host architecture. */
typedef struct glow_target_host {
  const char *triple;           /* the host triple it was built for: "x86_64-unknown-linux-gnu" */
  const unsigned char *bitcode;
  const size_t *bitcode_size;
} glow_target_host;

/* A step as supports_op sees it: what its node lowered to (compiler/glowc.h's glow_kcall). */
typedef struct glow_target_step {
  const char *kernel;     /* the kernel, "glow_k_rnn_f32"; or the caller's function when external */
  const int64_t *params;  /* the kernel's parameters (kernel.h's p) */
  int nparams;
  int external;           /* a function of the bundle's caller (a custom op), not one of the kernels */
} glow_target_step;

typedef struct glow_target {
  int version;                    /* GLOW_TARGET_INTERFACE_VERSION */
  const char *name;               /* folder name: "x86_64" */
  const char *const *arches;      /* triple architectures it serves, NULL-terminated: {"x86_64", NULL} */
  const char *kernel_triple;      /* triple the kernel bitcode was built for (the example in -help) */
  const char *default_cpu;        /* portable baseline */
  const char *default_features;   /* ISA extensions of the baseline, before -mattr ("" for none) */
  const char *cpu_examples;       /* a few -mcpu values for messages: "cortex-a53, cortex-a72" */
  /* The -mcpu values that fit the target's triples, NULL-terminated; NULL: whatever LLVM knows for
   * them. 32-bit Arm needs the list: LLVM takes any Arm CPU for any Arm triple and silently
   * compiles for that CPU's architecture instead (a Cortex-M4 bundle for a thumbv6m triple). */
  const char *const *cpus;
  /* Glow's spelling, -target=arm (or thumb) -mcpu=<one of cpus>: the triple it becomes (NULL:
   * none), and the -float-abi it gets unless given (Glow's arm triple has no environment: "soft",
   * the FPU used with floats passed in core registers; NULL: the triple's own). */
  const char *glow_triple;
  const char *glow_float_abi;
  int arm_float_abi;              /* 1: 32-bit ARM, where -float-abi picks the calling convention */
  const unsigned char *bitcode;   /* kernel bitcode, embedded at toolchain build time */
  const size_t *bitcode_size;     /* its size in bytes */
  const glow_target_probe *probes; /* kernels' glow_target_<name> flags, ended by a NULL name; NULL: none */
  /* GPU targets: the kernels become the steps' GPU code, embedded in an object for the host,
   * whose entry launches them (ended by a NULL triple); NULL: a CPU target. */
  const glow_target_host *hosts;
  /* GPU targets: the kernels' GLOW_STACK_PANEL_FLOATS (target.cmake), which bounds the sizes
   * of the kernels whose buffers are fixed there (no variable-length arrays: RNNs). */
  int stack_panel_floats;
  /* The float32 conv kernel's register tiles (common/kernels/conv.c): how many blocks of 16
   * output channels one takes at most where conv_tile_probe holds for the target machine
   * (NULL: always), 1 elsewhere; pack-conv-weights lays the weight panels out for them. 0: 1. */
  int conv_tile_blocks;
  const glow_target_probe *conv_tile_probe;
  /* Whether the target runs a step (as ggml's backends' supports_op): 1; or 0 with why it
   * cannot and what to do in why[0, cap), which codegen reports on the step's node.
   * NULL: every step. */
  int (*supports_op)(const struct glow_target *t, const glow_target_step *s, char *why, size_t cap);
  /* CPU targets whose threads' stacks hold the Winograd conv kernel's buffers (220 KiB,
   * kernels/conv-winograd.c): 1 where 3x3 convs run by Winograd (passes/winograd.c). */
  int conv_winograd;
  /* CPUs (LLVM's names, space-separated) whose cores run two 512-bit FMAs a cycle, where
   * Winograd runs only on planes of 400 outputs and more (passes/winograd.c): the direct
   * conv kernel reaches such a core's peak on a 14 x 14 plane, and Winograd's weights,
   * 4 times the size, come from memory in a whole model. NULL: none. */
  const char *fma512_cpus;
  /* LLVM's "prefer-vector-width" for every function of the bundle (NULL: the CPU's tuning).
   * x86-64: "512", so that the loops LLVM vectorizes (epilogues, elementwise steps) take
   * zmm registers on Intel's AVX-512 CPUs too, which LLVM tunes to prefer ymm; on CPUs
   * without AVX-512 it changes nothing. */
  const char *prefer_vector_width;
} glow_target;

/* targets/targets.c */
extern const glow_target *const glow_targets[];
extern const int glow_ntargets;
/* The target whose arches include the triple's architecture (the part before the first '-'), or NULL. */
const glow_target *glow_target_for_triple(const char *triple);

#endif
