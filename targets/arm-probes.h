/* Probes shared by the 32-bit Arm M-profile targets (targets/<t>/target.c), as LLVM IR; the
 * kernels read them as glow_target_arm_dsp and glow_target_arm_mve (target.h says how). */
#ifndef GLOW_ARM_PROBES_H
#define GLOW_ARM_PROBES_H

/* The DSP extension (SMLAD-class multiply-accumulates; Cortex-M4, M7, and the M33 and M55 unless
 * built without it, -mattr=-dsp): a 16-bit multiply-add becomes smlabb. */
extern const char glow_arm_probe_dsp[];
/* MVE (Helium, Cortex-M55 unless -mattr=-mve): a 16-byte vector add is one vadd.i8. */
extern const char glow_arm_probe_mve[];
/* An FPU for single precision: a float add is one vadd.f32 (codegen/target-machine.c checks it
 * where the float ABI is hard). */
extern const char glow_arm_probe_fpu[];

#endif
