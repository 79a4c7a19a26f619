/* Target descriptions: what the compiler knows about each target it can emit
 * bundles for. Each targets/<t>/target.c exports one `const glow_target`. */
#ifndef GLOW_TARGET_H
#define GLOW_TARGET_H

#include <stddef.h>

#define GLOW_TARGET_INTERFACE_VERSION 1

typedef struct glow_target {
  int version;                    /* GLOW_TARGET_INTERFACE_VERSION */
  const char *name;               /* folder name: "x86_64" */
  const char *arch;               /* triple architecture it serves: "x86_64" */
  const char *kernel_triple;      /* triple the kernel bitcode was built for */
  const char *default_cpu;        /* portable baseline */
  const unsigned char *bitcode;   /* kernel bitcode, embedded at toolchain build time */
  const size_t *bitcode_size;   /* its size in bytes */
} glow_target;

/* targets/targets.c */
extern const glow_target *const glow_targets[];
extern const int glow_ntargets;
const glow_target *glow_target_for_triple(const char *triple);

#endif
