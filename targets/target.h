/* Target descriptions: what the compiler knows about each target it can emit
 * bundles for. Each targets/<t>/target.c exports one `const glow_target`. */
#ifndef GLOW_TARGET_H
#define GLOW_TARGET_H

#include <stddef.h>

#define GLOW_TARGET_INTERFACE_VERSION 2

typedef struct glow_target {
  int version;                    /* GLOW_TARGET_INTERFACE_VERSION */
  const char *name;               /* folder name: "x86_64" */
  const char *const *arches;      /* triple architectures it serves, NULL-terminated: {"x86_64", NULL} */
  const char *kernel_triple;      /* triple the kernel bitcode was built for (the example in -help) */
  const char *default_cpu;        /* portable baseline */
  const char *default_features;   /* ISA extensions of the baseline, before -mattr ("" for none) */
  const char *cpu_examples;       /* a few -mcpu values for messages: "cortex-a53, cortex-a72" */
  int arm_float_abi;              /* 1: 32-bit ARM, where -float-abi picks the calling convention */
  const unsigned char *bitcode;   /* kernel bitcode, embedded at toolchain build time */
  const size_t *bitcode_size;     /* its size in bytes */
} glow_target;

/* targets/targets.c */
extern const glow_target *const glow_targets[];
extern const int glow_ntargets;
/* The target whose arches include the triple's architecture (the part before the first '-'), or NULL. */
const glow_target *glow_target_for_triple(const char *triple);

#endif
