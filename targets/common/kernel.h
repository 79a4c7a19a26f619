/* The kernel interface, shared by every target.
 *
 * A kernel is freestanding C (no libc, no malloc) compiled to LLVM bitcode for
 * each target when the toolchain is built. Every kernel has one signature:
 *
 *   GLOW_KERNEL(add_f32) {           // void glow_k_add_f32(uint8_t *const *t, const int64_t *p)
 *     float *out = (float *)t[0];    // tensors: outputs first, then inputs (NULL if omitted)
 *     int64_t n = p[0];              // params: shapes, strides, attributes
 *     ...
 *   }
 *
 * The bundle's entry function calls kernels with `t` and `p` built from
 * constants, then inlines them, so every shape and stride below folds into
 * the code LLVM generates. Parameter layouts are fixed by the lowering code in
 * compiler/ops/ that packs them: a struct of kernel-abi.h for the families
 * there, else a layout each kernel states in a comment.
 * Floating-point attributes travel as the bits of a double (glow_pf()). */
#ifndef GLOW_KERNEL_H
#define GLOW_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "kernel-abi.h"

#define GLOW_KERNEL(name) void glow_k_##name(uint8_t *const *t, const int64_t *p)
#define GLOW_KERNEL_PART(name)                                                                                         \
  void glow_k_##name##_part(uint8_t *const *t, const int64_t *p, int64_t part, int64_t nparts)

static inline double glow_pf(int64_t bits) {
  union {
    int64_t i;
    double f;
  } u;
  u.i = bits;
  return u.f;
}

#endif
