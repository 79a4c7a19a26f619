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

/* codegen/kernel-library.c: the target's kernel bitcode as a module whose function bodies
 * are read on demand; -1 after reporting that it is unreadable. */
int glow_kernels_read(LLVMContextRef ctx, const glow_target *tgt, LLVMModuleRef *m);
/* codegen/kernel-library.c: reads the body of every kernel the module's code uses (and
 * of those they use), and deletes the kernels never read. Before anything looks at
 * the kernels' bodies (verifier, passes, bitcode). */
void glow_kernels_read_used(LLVMModuleRef m);

/* codegen/optimize-halves.c: LLVM's O3 over the module, its steps (functions named
 * <prefix><i>.<op>) split into two halves optimized on two threads, each with its own
 * target machine (tm[1] NULL: all on this thread); *m is replaced by the result. */
int glow_codegen_optimize(LLVMContextRef ctx, LLVMModuleRef *m, LLVMTargetMachineRef tm[2], const char *prefix);

/* step-work.c */
/* A step's work for the -num-threads split: multiply-adds of a convolution or
 * matrix product, input elements of any other step. */
int64_t glow_step_work(const glow_graph *g, const glow_node *n);

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

/* codegen/stack-usage.c: the frames of m's functions as LLVM lays them out, kept from the
 * diagnostics of the object's making, which happens between begin and end; begin marks every
 * function of m and takes the context's diagnostic handler until end. end fills *u (when not
 * NULL) from m's call graph, and returns -1 if LLVM reported an error meanwhile (printed). */
typedef struct glow_stack_probe glow_stack_probe;
glow_stack_probe *glow_stack_probe_begin(LLVMModuleRef m);
int glow_stack_probe_end(glow_stack_probe *p, LLVMModuleRef m, glow_stack_usage *u);

/* codegen/link-entries.c: the module's bitcode (malloc'd into *out), for -entry's link. @return 0. */
int glow_module_bitcode(LLVMModuleRef m, void **out, size_t *size);

/* codegen/emit-config.c: a constant global, exported under `name`, or private (and
 * unnamed_addr) when local. */
LLVMValueRef glow_llvm_const_global(LLVMModuleRef m, LLVMValueRef init, const char *name, int local);
/* codegen/emit-config.c: the dynamic API's <net>_config and <net>_tensor_info. */
void glow_emit_config(LLVMModuleRef m, const glow_graph *g, const glow_plan *p, const char *net);

/* codegen/debug-info.c (-g): the listing's line of a step (-1: the entry's line). */
unsigned glow_listing_line(int step);
/* The name a step's function has in the DWARF: <entry>_step<i>_<node name, [A-Za-z0-9_]>. */
void glow_step_debug_name(char *dst, size_t cap, const char *entry, int step, const glow_node *n);
typedef struct glow_dbg glow_dbg;
/* A DIBuilder over m and its compile unit (the listing), or NULL without -g; every
 * glow_dbg_* function takes NULL and then does nothing. */
glow_dbg *glow_dbg_create(LLVMModuleRef m, const glow_bundle_options *o);
/* fn's subprogram, opening on `line`. */
LLVMMetadataRef glow_dbg_function(glow_dbg *d, LLVMValueRef fn, const char *name, unsigned line, int exported);
/* What b builds from now on is at `line` of `scope` (a subprogram). */
void glow_dbg_at(glow_dbg *d, LLVMBuilderRef b, LLVMMetadataRef scope, unsigned line);
void glow_dbg_finish(glow_dbg *d); /* finalizes the debug info */

/* codegen/instrument-info.c: a step's operands with memory in the bundle, as Glow's
 * instrumentation passes them: id[0, nin) the inputs, then nout outputs (malloc'd). */
typedef struct glow_operands {
  int nin, nout;
  int *id;
  const char *roles; /* Glow's names of the inputs ("Src Filter Bias"), NULL: Src<i> */
} glow_operands;
void glow_operands_of(const glow_graph *g, const glow_plan *p, const glow_node *n, glow_operands *ops);
void glow_operands_free(glow_operands *ops);
/* Operand k's name in the .info files: Glow's for the inputs where known, else Src, Dest,
 * or Src<i>/Dest<i> when there are several. */
void glow_operand_name(char *dst, size_t cap, const glow_operands *ops, int k);
/* Glow's instruction kind for the node: its name, and its number in *number. */
const char *glow_glow_kind(const glow_graph *g, const glow_node *n, int *number);
/* A tensor's type as Glow writes it: "float<1 x 10>". */
void glow_glow_type(glow_strbuf *b, const glow_value *v);
/* -instrument-debug-format, "console" when not given. */
const char *glow_instrument_debug_format(const glow_bundle_options *o);
/* 1 if -instrument-debug writes the node's operands. */
int glow_instrument_debug_selected(const glow_bundle_options *o, const glow_graph *g, const glow_node *n);

/* codegen/dump-tensor.c: a call at `at` writing tensor v (at `data`) in -instrument-debug-format
 * `format`: to the file `path`, or to the console under `name`. */
int glow_dump_tensor_call(LLVMModuleRef m, LLVMBuilderRef at, const char *format, LLVMValueRef data,
                          const glow_value *v, const char *path, const char *name);

/* codegen/extern-call.c: at b, the call of a step lowered with glow_kcall_extern; area: the
 * step's area pointers by plan area number. @return 0, or -1 after an error naming the node. */
int glow_extern_call(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef const *area, const glow_graph *g,
                     const glow_plan *p, const glow_node *n, const glow_kcall *kc);

/* codegen/instrument.c: the entry's calls around each step, or NULL without -instrument-ir
 * and -instrument-debug (every glow_instr_* function then does nothing). */
typedef struct glow_instr glow_instr;
glow_instr *glow_instr_create(LLVMModuleRef m, const glow_graph *g, const glow_plan *p, const glow_bundle_options *o);
void glow_instr_entry(glow_instr *in, LLVMBuilderRef b); /* the operand arrays, at the entry's start */
/* area: the entry's area pointers by plan area number. */
void glow_instr_before(glow_instr *in, LLVMBuilderRef b, LLVMValueRef const *area, int step, const glow_node *n);
void glow_instr_after(glow_instr *in, LLVMBuilderRef b, LLVMValueRef const *area, int step, const glow_node *n);
void glow_instr_free(glow_instr *in);

/* codegen/codegen.c: one bundle module's codegen, which gpu-emit.c continues for GPU targets. */
typedef struct glow_cg {
  LLVMContextRef ctx;
  LLVMModuleRef m;
  LLVMBuilderRef b;
  LLVMTypeRef ptr, i8, i32, i64;
  LLVMValueRef area[4]; /* by plan area number: 1 constant, 2 mutable, 3 activations */
  int nparams;          /* counter for parameter-array names */
  int num_threads;      /* -num-threads */
  int thread_min_work;  /* -num-threads-min-work */
  LLVMValueRef areas;   /* the entry's [3 x ptr] of areas, for parallel steps (NULL until the first) */
  LLVMValueRef pfor;    /* the extern_weak glow_parallel_for */
  int gpu;               /* a GPU target: steps are kernels, no entry */
  const glow_target *tgt;
  glow_gpu_step *gsteps; /* a GPU target's steps, for the host module (gpu-host.c) */
  int ngsteps;
  glow_dbg *dbg;            /* -g (debug-info.c), else NULL */
  LLVMMetadataRef entry_sp; /* -g: the entry's subprogram */
  glow_instr *ins;          /* -instrument-ir, -instrument-debug (instrument.c), else NULL */
} glow_cg;
/* The attributes of the entry and of every step: the three areas never alias; freestanding. */
void glow_cg_step_attrs(glow_cg *c, LLVMValueRef fn);
/* At c->b, the call of the node's kernel (kc, lowered); with part (part, nparts: i64
 * values) its _part variant or its slice of the split. @return 0, or -1 after an error. */
int glow_cg_emit_call(glow_cg *c, const glow_graph *g, const glow_plan *p, const glow_node *n, const glow_kcall *kc,
                      LLVMValueRef *part);

/* codegen/gpu-emit.c: a GPU target's (one with hosts) steps and object. */
/* -1 after the error for an option a GPU bundle cannot take (embedded weights, -g, -instrument-*). */
int glow_gpu_check_options(const glow_bundle_options *o);
/* The step as a kernel of the three areas (a PTX .entry <net>_step<i>) that the host
 * module's entry launches; its launch kept in c->gsteps. */
int glow_gpu_emit_step(glow_cg *c, const glow_graph *g, const glow_plan *p, const glow_node *n, const glow_kcall *kc,
                       int step, const char *net);
/* The module as PTX, in the host's object (gpu-host.c) with the steps' launches. */
int glow_gpu_emit_object(glow_cg *c, LLVMTargetMachineRef tm, const glow_graph *g, const glow_plan *p,
                         const glow_bundle_options *o, const glow_resolved_target *rt, void **obj, size_t *obj_size);

#endif
