/* What the codegen makes of its optimized module: dumps, assembly, the object (in process or through external LLVM tools). */
#ifndef GLOW_LLVM_OUTPUT_H
#define GLOW_LLVM_OUTPUT_H

#include <llvm-c/TargetMachine.h>

#include "codegen/codegen-internal.h"

/* codegen/target-machine.c: 1 if the object is position-independent (-relocation-model, else
 * PIC but on bare-metal triples), 0 if static. */
int glow_target_pic(const glow_target_options *o, const char *triple);

/* codegen/target-machine.c: -mabi in the module too: the kernels' bitcode records the ABI it
 * was compiled for (RISC-V's "target-abi" flag), which LLVM requires to agree with the target
 * machine's. Nothing without -mabi. */
void glow_target_module_abi(LLVMModuleRef m, const char *abi);

/* codegen/llvm-output.c: -dump-llvm-ir: the module's IR to stdout under Glow's heading, "LLVM
 * module <when> optimizations:" (Glow prints it before and after). */
void glow_llvm_dump_ir(LLVMModuleRef m, const char *when);

/* codegen/llvm-output.c: from the optimized module m, the bundle's code into *out: an object
 * file, or for a GPU target (`assembly`) the assembly (PTX). On the way: -dump-llvm-ir (after
 * optimizations), -dump-llvm-asm, -llvm-save-asm (into *o->asm_text), and -llvm-opt /
 * -llvm-compiler. The object is the same bytes with or without the assembly.
 * @return 0, or -1 after reporting an error (*out then NULL). */
int glow_llvm_output(LLVMTargetMachineRef tm, LLVMModuleRef m, const glow_bundle_options *o,
                     const glow_resolved_target *rt, int assembly, void **out, size_t *size);

/* codegen/llvm-tools.c: -llvm-opt and -llvm-compiler, as Glow runs them: m's bitcode written
 * into a private temporary folder, `opt -O3` run on it if -llvm-opt, then the object made by
 * `llc` (with the target's flags, then every -llvm-compiler-opt) if -llvm-compiler, else in
 * process with tm. The assembly too when `want_asm` (by llc when it makes the object). The
 * folder is removed in every case.
 * @return 0, or -1 after an error naming the tool and its exit status and stderr. */
int glow_llvm_tools(LLVMTargetMachineRef tm, LLVMModuleRef m, const glow_bundle_options *o,
                    const glow_resolved_target *rt, void **obj, size_t *obj_size, int want_asm, char **asm_text,
                    size_t *asm_size);

#endif
