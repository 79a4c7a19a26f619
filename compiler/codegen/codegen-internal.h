/* Shared by the codegen files only. */
#ifndef GLOW_CODEGEN_INTERNAL_H
#define GLOW_CODEGEN_INTERNAL_H

#include <llvm-c/TargetMachine.h>

#include "glowc.h"

/* codegen/target-machine.c */
LLVMTargetMachineRef glow_target_machine(const glow_target_options *o, char **cpu, char **features);

#endif
