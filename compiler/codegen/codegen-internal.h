/* Shared by the codegen files only. */
#ifndef GLOW_CODEGEN_INTERNAL_H
#define GLOW_CODEGEN_INTERNAL_H

#include <llvm-c/TargetMachine.h>

#include "glowc.h"
#include "target.h"

/* What a target machine was made for, after defaults, -mcpu=native and -float-abi (malloc'd strings). */
typedef struct glow_resolved_target {
  char *triple, *cpu, *features;
} glow_resolved_target;

/* codegen/target-machine.c: NULL after reporting an unknown CPU, feature or float ABI. */
LLVMTargetMachineRef glow_target_machine(const glow_target_options *o, const glow_target *tgt,
                                         glow_resolved_target *r);
/* codegen/target-machine.c: 1 if the target machine compiles the probe's IR into
 * assembly with its mnemonic, else 0 (target.h). */
int glow_target_probe_run(LLVMTargetMachineRef tm, const char *triple, const glow_target_probe *pr);

/* codegen/target-machine.c: the module as an object file or assembly (PTX), malloc'd into
 * *out; -1 after reporting a failure (for `triple`). */
int glow_codegen_emit(LLVMTargetMachineRef tm, LLVMModuleRef m, LLVMCodeGenFileType type, const char *triple,
                      void **out, size_t *size);

/* codegen/optimize-halves.c: LLVM's O3 over the module, its steps (functions named
 * <prefix><i>.<op>) split into two halves optimized on two threads, each with its own
 * target machine (tm[1] NULL: all on this thread); *m is replaced by the result. */
int glow_codegen_optimize(LLVMContextRef ctx, LLVMModuleRef *m, LLVMTargetMachineRef tm[2], const char *prefix);

/* A GPU target's step: its kernel's name in the PTX and its launch. */
typedef struct glow_gpu_step {
  char name[96];
  uint32_t grid, block; /* blocks, threads per block */
} glow_gpu_step;

/* codegen/gpu-host.c: a GPU bundle's object, for the host: the PTX (NUL-terminated
 * in it), the entry that launches the steps, and the dynamic API's config.
 * @return 0, or -1 after an error. */
int glow_gpu_host_object(const glow_target *tgt, const glow_graph *g, const glow_plan *p,
                         const glow_bundle_options *o, const char *ptx, size_t ptx_size, const glow_gpu_step *steps,
                         int nsteps, void **obj, size_t *obj_size);

/* codegen/emit-config.c: a constant global, exported under `name`, or private (and
 * unnamed_addr) when local. */
LLVMValueRef glow_llvm_const_global(LLVMModuleRef m, LLVMValueRef init, const char *name, int local);
/* codegen/emit-config.c: the dynamic API's <net>_config and <net>_tensor_info. */
void glow_emit_config(LLVMModuleRef m, const glow_graph *g, const glow_plan *p, const char *net);

#endif
