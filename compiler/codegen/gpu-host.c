/* require the PTX of a GPU bundle's steps; emits the bundle's object for the host.
 * The object holds the PTX (NUL-terminated, in section .glow.ptx), the table of
 * steps (kernel name, blocks, threads per block) and the entry, which calls the
 * target's host code (targets/cuda/launch.c, inlined) to load the PTX into the
 * current CUDA context once and launch the steps in order. The entry takes the
 * three areas as device pointers and returns 0 or the CUresult that failed. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "codegen/codegen-internal.h"

/* The target's host code built for the host triple's architecture, or NULL. */
static const glow_target_host *host_code(const glow_target *tgt, const char *triple) {
  size_t n = strcspn(triple, "-");
  for (const glow_target_host *h = tgt->hosts; h->triple; h++)
    if (strcspn(h->triple, "-") == n && !strncmp(h->triple, triple, n))
      return h;
  return NULL;
}

static LLVMValueRef zeroed_global(LLVMModuleRef m, LLVMTypeRef t, const char *name) {
  LLVMValueRef gv = LLVMAddGlobal(m, t, name);
  LLVMSetInitializer(gv, LLVMConstNull(t));
  LLVMSetLinkage(gv, LLVMInternalLinkage);
  return gv;
}

/* The entry: glow_cuda_run(ptx, steps, nsteps, cache, fns, constant, mutable, activations). */
static int build_entry(LLVMModuleRef m, const char *entry, const char *ptx, size_t ptx_size,
                       const glow_gpu_step *steps, int nsteps) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0), i32 = LLVMInt32TypeInContext(ctx);
  LLVMValueRef run = LLVMGetNamedFunction(m, "glow_cuda_run");
  if (!run) {
    glow_error(NULL, "internal error: the CUDA host code embedded in this toolchain has no glow_cuda_run");
    return -1;
  }
  LLVMValueRef text = glow_llvm_const_global(m, LLVMConstStringInContext2(ctx, ptx, ptx_size, 0), "ptx", 1);
  LLVMSetSection(text, ".glow.ptx");
  LLVMTypeRef step_fields[3] = {ptr, i32, i32};
  LLVMTypeRef step_t = LLVMStructTypeInContext(ctx, step_fields, 3, 0);
  LLVMValueRef *rows = glow_xmalloc(sizeof *rows * (size_t)(nsteps ? nsteps : 1));
  for (int i = 0; i < nsteps; i++) {
    LLVMValueRef name = LLVMConstStringInContext2(ctx, steps[i].name, strlen(steps[i].name), 0);
    LLVMValueRef f[3] = {glow_llvm_const_global(m, name, "step", 1), LLVMConstInt(i32, steps[i].grid, 0),
                         LLVMConstInt(i32, steps[i].block, 0)};
    rows[i] = LLVMConstStructInContext(ctx, f, 3, 0);
  }
  LLVMValueRef table = glow_llvm_const_global(m, LLVMConstArray2(step_t, rows, (uint64_t)nsteps), "steps", 1);
  free(rows);
  LLVMTypeRef cache_fields[2] = {ptr, ptr};
  LLVMValueRef cache = zeroed_global(m, LLVMStructTypeInContext(ctx, cache_fields, 2, 0), "module");
  LLVMValueRef fns = zeroed_global(m, LLVMArrayType2(ptr, (uint64_t)(nsteps ? nsteps : 1)), "kernels");

  LLVMTypeRef args[3] = {ptr, ptr, ptr};
  LLVMValueRef fn = LLVMAddFunction(m, entry, LLVMFunctionType(i32, args, 3, 0));
  unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, nounwind, 0));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
  LLVMValueRef call_args[8] = {text, table, LLVMConstInt(i32, (unsigned long long)nsteps, 0), cache, fns,
                               LLVMGetParam(fn, 0), LLVMGetParam(fn, 1), LLVMGetParam(fn, 2)};
  LLVMValueRef rc = LLVMBuildCall2(b, LLVMGlobalGetValueType(run), run, call_args, 8, "");
  LLVMBuildRet(b, rc);
  LLVMDisposeBuilder(b);
  return 0;
}

int glow_gpu_host_object(const glow_target *tgt, const glow_graph *g, const glow_plan *p,
                         const glow_bundle_options *o, const char *ptx, size_t ptx_size, const glow_gpu_step *steps,
                         int nsteps, void **obj, size_t *obj_size) {
  char *triple = o->host_triple ? glow_xstrdup(o->host_triple) : glow_default_triple();
  const glow_target_host *h = host_code(tgt, triple);
  const glow_target *host_tgt = glow_target_for_triple(triple);
  if (!h || !host_tgt) {
    glow_strbuf hosts = {0};
    for (const glow_target_host *k = tgt->hosts; k->triple; k++)
      glow_sb_printf(&hosts, "%s%s", k == tgt->hosts ? "" : ", ", k->triple);
    glow_error("-cuda-host", "the host of a %s bundle (the machine its program runs on) is one of %s, not '%s'",
               o->target.triple, hosts.s, triple);
    glow_sb_free(&hosts);
    free(triple);
    return -1;
  }
  glow_target_options hopt = {.triple = triple, .pic = o->target.pic};
  glow_resolved_target rt;
  LLVMTargetMachineRef tm = glow_target_machine(&hopt, host_tgt, &rt);
  free(triple);
  if (!tm)
    return -1;
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange((const char *)h->bitcode, *h->bitcode_size,
                                                                 "cuda-host", 0);
  LLVMModuleRef m = NULL;
  int rc = -1;
  if (LLVMParseBitcodeInContext2(ctx, mb, &m)) {
    glow_error(NULL, "the %s host code embedded in this toolchain is unreadable (rebuild glowc)", tgt->name);
    goto done;
  }
  const char *net = o->network_name;
  LLVMSetModuleIdentifier(m, net, strlen(net));
  LLVMSetSourceFileName(m, net, strlen(net));
  LLVMSetTarget(m, rt.triple);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(m, td);
  LLVMDisposeTargetData(td);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      LLVMSetLinkage(f, LLVMInternalLinkage);
  if (build_entry(m, o->entry_name ? o->entry_name : net, ptx, ptx_size, steps, nsteps))
    goto done;
  if (o->dynamic_api)
    glow_emit_config(m, g, p, net);
  char *msg = NULL;
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
    fprintf(stderr, "glowc: internal error: invalid LLVM host module: %s\n", msg);
    abort();
  }
  LLVMDisposeMessage(msg);
  LLVMTargetMachineRef tms[2] = {tm, NULL};
  if (glow_codegen_optimize(ctx, &m, tms, "-")) /* one thread: no steps here to split (no "-" prefix) */
    goto done;
  rc = glow_codegen_emit(tm, m, LLVMObjectFile, rt.triple, obj, obj_size);
done:
  if (m)
    LLVMDisposeModule(m);
  LLVMDisposeMemoryBuffer(mb);
  LLVMContextDispose(ctx);
  LLVMDisposeTargetMachine(tm);
  free(rt.triple);
  free(rt.cpu);
  free(rt.features);
  return rc;
}
