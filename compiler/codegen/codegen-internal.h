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

/* codegen/optimize-halves.c: LLVM's O3 over the module, its steps (functions named
 * <prefix><i>.<op>) split into two halves optimized on two threads, each with its own
 * target machine (tm[1] NULL: all on this thread); *m is replaced by the result. */
int glow_codegen_optimize(LLVMContextRef ctx, LLVMModuleRef *m, LLVMTargetMachineRef tm[2], const char *prefix);

#endif
