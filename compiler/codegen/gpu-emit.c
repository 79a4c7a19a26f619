/* A GPU target's part of codegen (a glow_target with hosts: targets/cuda): each step a
 * kernel of its own (a PTX .entry) instead of a call from the entry, the options GPU
 * bundles cannot take refused, and the PTX put into the host's object (gpu-host.c),
 * whose entry launches the steps. codegen.c calls these through codegen-internal.h. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen/codegen-internal.h"
#include "codegen/llvm-output.h"

int glow_gpu_check_options(const glow_bundle_options *o) {
  if (o->packed || (o->weights & GLOW_WEIGHTS_EMBEDDED)) {
    glow_error("-weights", "embedded weights are not for GPU bundles (%s): their constant area lives in device "
               "memory, where the runtime copies it from the weights file; use -weights=bin or -weights=zst",
               o->target.triple);
    return -1;
  }
  if (o->debug_info || o->instrument_ir || o->instrument_debug) {
    glow_error(o->debug_info ? "-g" : o->instrument_ir ? "-instrument-ir" : "-instrument-debug",
               "not for GPU bundles (%s): their steps run on the device; compile for a CPU target to debug the "
               "steps", o->target.triple);
    return -1;
  }
  return 0;
}

/* The launch of a GPU step with parts: about one part per 256 output
 * elements, in blocks of 64 threads, at most 8192 parts (the kernels split
 * their work by tiles, so more threads than tiles idle). */
static void gpu_launch(const glow_graph *g, const glow_node *n, glow_gpu_step *s) {
  int64_t work = n->nout > 0 && n->out[0] >= 0 ? glow_value_numel(&g->vals[n->out[0]]) : 1, parts = work / 256;
  parts = parts < 1 ? 1 : parts > 8192 ? 8192 : parts;
  s->block = (uint32_t)(parts < 64 ? parts : 64);
  s->grid = (uint32_t)((parts + s->block - 1) / s->block);
}

static LLVMValueRef sreg(glow_cg *c, const char *name) {
  char full[64];
  snprintf(full, sizeof full, "llvm.nvvm.read.ptx.sreg.%s", name);
  LLVMTypeRef ft = LLVMFunctionType(c->i32, NULL, 0, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(c->m, full);
  if (!fn)
    fn = LLVMAddFunction(c->m, full, ft);
  return LLVMBuildCall2(c->b, ft, fn, NULL, 0, "");
}

/* Where the node's kernel has a _part variant or its call a split (glow_kcall_split),
 * each thread runs part = its index in the launch and nparts = the launch's thread
 * count; else one thread runs it whole. */
int glow_gpu_emit_step(glow_cg *c, const glow_graph *g, const glow_plan *p, const glow_node *n, const glow_kcall *kc,
                       int step, const char *net) {
  char pname[sizeof kc->kernel + 8];
  snprintf(pname, sizeof pname, "%s_part", kc->kernel);
  int parallel = LLVMGetNamedFunction(c->m, pname) != NULL || kc->split_n > 1;
  c->gsteps = glow_xrealloc(c->gsteps, sizeof *c->gsteps * (size_t)(c->ngsteps + 1));
  glow_gpu_step *s = &c->gsteps[c->ngsteps++];
  snprintf(s->name, sizeof s->name, "%.40s_step%d_%.32s", net, step, glow_op_get(n->op)->onnx_name);
  s->grid = s->block = 1;
  if (parallel)
    gpu_launch(g, n, s);
  LLVMTypeRef args[3] = {c->ptr, c->ptr, c->ptr};
  LLVMValueRef fn = LLVMAddFunction(c->m, s->name, LLVMFunctionType(LLVMVoidTypeInContext(c->ctx), args, 3, 0));
  glow_cg_step_attrs(c, fn);
  LLVMSetFunctionCallConv(fn, 71); /* PTX_Kernel, and the annotation older NVPTX backends read */
  LLVMMetadataRef md[3] = {LLVMValueAsMetadata(fn), LLVMMDStringInContext2(c->ctx, "kernel", 6),
                           LLVMValueAsMetadata(LLVMConstInt(c->i32, 1, 0))};
  LLVMAddNamedMetadataOperand(c->m, "nvvm.annotations",
                              LLVMMetadataAsValue(c->ctx, LLVMMDNodeInContext2(c->ctx, md, 3)));
  LLVMPositionBuilderAtEnd(c->b, LLVMAppendBasicBlockInContext(c->ctx, fn, "entry"));
  for (int a = 1; a <= 3; a++)
    c->area[a] = LLVMGetParam(fn, (unsigned)(a - 1));
  LLVMValueRef part[2] = {NULL, NULL};
  if (parallel) {
    LLVMValueRef idx = LLVMBuildAdd(c->b, LLVMBuildMul(c->b, sreg(c, "ctaid.x"), sreg(c, "ntid.x"), ""),
                                    sreg(c, "tid.x"), "");
    part[0] = LLVMBuildZExt(c->b, idx, c->i64, "part");
    part[1] = LLVMBuildZExt(c->b, LLVMBuildMul(c->b, sreg(c, "nctaid.x"), sreg(c, "ntid.x"), ""), c->i64, "nparts");
  }
  int rc = glow_cg_emit_call(c, g, p, n, kc, parallel ? part : NULL);
  LLVMBuildRetVoid(c->b);
  return rc;
}

int glow_gpu_emit_object(glow_cg *c, LLVMTargetMachineRef tm, const glow_graph *g, const glow_plan *p,
                         const glow_bundle_options *o, const glow_resolved_target *rt, void **obj, size_t *obj_size) {
  void *ptx;
  size_t ptx_size;
  int rc = glow_llvm_output(tm, c->m, o, rt, 1, &ptx, &ptx_size);
  if (!rc)
    rc = glow_gpu_host_object(c->tgt, g, p, o, ptx, ptx_size, c->gsteps, c->ngsteps, obj, obj_size);
  free(ptx);
  return rc;
}
