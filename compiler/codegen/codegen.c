/* require a memory plan; emits the bundle object.
 * Loads the target's kernel bitcode, builds one internal function per schedule
 * step (a kernel call whose tensor pointers and parameters are all constants)
 * and the entry function that calls the steps in order, gives every kernel the
 * requested CPU and features, inlines each kernel into its step and optimizes,
 * and emits an object file. Only the entry (and, for the dynamic API, the config)
 * is exported, so several bundles link into one program. A GPU target's steps
 * are kernels of their own and its object the host's (gpu-emit.c). */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "codegen/codegen-internal.h"
#include "codegen/llvm-output.h"
#include "target.h"

static void set_string_attr(LLVMContextRef ctx, LLVMValueRef fn, const char *k, const char *v) {
  LLVMRemoveStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, k, (unsigned)strlen(k));
  if (v && *v)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ctx, k, (unsigned)strlen(k), v, (unsigned)strlen(v)));
}

static void add_enum_attr(LLVMContextRef ctx, LLVMValueRef fn, unsigned idx, const char *name) {
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(ctx, kind, 0));
}

/* Kernels: internal, always inlined, compiled for the requested CPU; but for the
 * functions named glow_ks_* ("kernel shared": a kernel's heavy inner part that takes
 * run-time arguments, which specializing per step would only compile again for each
 * step), left to the inliner's choice, and so to be compiled once per bundle. */
static void prepare_kernels(glow_cg *c, const char *cpu, const char *features) {
  for (LLVMValueRef f = LLVMGetFirstFunction(c->m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    LLVMSetLinkage(f, LLVMInternalLinkage);
    set_string_attr(c->ctx, f, "target-cpu", cpu);
    set_string_attr(c->ctx, f, "target-features", features);
    set_string_attr(c->ctx, f, "tune-cpu", NULL);
    /* clang gives each kernel the vector width its signature needs ("0" for one that
     * takes pointers); on CPUs that LLVM tunes to prefer 256-bit vectors (Sapphire
     * Rapids) that splits a function's 64-byte vectors in two ymm halves. The step
     * functions have no such limit, so neither do the kernels: where the x86_zmm probe
     * holds, a glow_ks_ function gets the zmm registers its inlined siblings get. */
    LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "min-legal-vector-width", 22);
    set_string_attr(c->ctx, f, "prefer-vector-width", c->tgt->prefer_vector_width);
    size_t len;
    if (!strncmp(LLVMGetValueName2(f, &len), "glow_ks_", 8))
      continue;
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline);
    add_enum_attr(c->ctx, f, LLVMAttributeFunctionIndex, "alwaysinline");
  }
  for (LLVMValueRef gv = LLVMGetFirstGlobal(c->m); gv; gv = LLVMGetNextGlobal(gv))
    if (!LLVMIsDeclaration(gv))
      LLVMSetLinkage(gv, LLVMInternalLinkage);
}

/* The kernels' glow_target_<name> flags (target.h): constants from the target's
 * probes, 0 for a name it has no probe for. */
static void define_target_flags(glow_cg *c, const glow_target *tgt, LLVMTargetMachineRef tm, const char *triple) {
  for (LLVMValueRef gv = LLVMGetFirstGlobal(c->m); gv; gv = LLVMGetNextGlobal(gv)) {
    size_t len;
    const char *name = LLVMGetValueName2(gv, &len);
    if (!LLVMIsDeclaration(gv) || strncmp(name, "glow_target_", 12))
      continue;
    int v = 0;
    for (const glow_target_probe *pr = tgt->probes; pr && pr->name; pr++)
      if (!strcmp(name + 12, pr->name))
        v = glow_target_probe_run(tm, triple, pr);
    LLVMSetInitializer(gv, LLVMConstInt(LLVMGlobalGetValueType(gv), (unsigned long long)v, 0));
    LLVMSetGlobalConstant(gv, 1);
    LLVMSetLinkage(gv, LLVMInternalLinkage);
  }
}

/* The entry and its steps: the three areas never alias; freestanding, as the
 * kernels inlined into them (no loop becomes a memset or memcpy call). */
void glow_cg_step_attrs(glow_cg *c, LLVMValueRef fn) {
  for (unsigned i = 1; i <= 3; i++)
    add_enum_attr(c->ctx, fn, i, "noalias");
  add_enum_attr(c->ctx, fn, LLVMAttributeFunctionIndex, "nounwind");
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(c->ctx, "no-builtins", 11, "", 0));
  set_string_attr(c->ctx, fn, "prefer-vector-width", c->tgt->prefer_vector_width);
}

static LLVMValueRef const_i64(glow_cg *c, uint64_t v) { return LLVMConstInt(c->i64, v, 0); }

static LLVMValueRef const_global(glow_cg *c, LLVMValueRef init, const char *name, int local) {
  return glow_llvm_const_global(c->m, init, name, local);
}

static LLVMValueRef tensor_ptr(glow_cg *c, const glow_plan *p, int id) {
  if (id < 0)
    return LLVMConstNull(c->ptr);
  GLOW_ASSERT(p->area[id] >= 1 && p->area[id] <= 3);
  LLVMValueRef off = const_i64(c, p->offset[id]);
  return LLVMBuildInBoundsGEP2(c->b, c->i8, c->area[p->area[id]], &off, 1, "");
}

/* Where part k of nparts starts in a range of n units: (n k / nparts) rounded down to whole steps of `align`. */
static LLVMValueRef slice_start(glow_cg *c, const glow_kcall *kc, LLVMValueRef k, LLVMValueRef nparts) {
  LLVMValueRef a = const_i64(c, (uint64_t)kc->split_align);
  LLVMValueRef q = LLVMBuildUDiv(c->b, LLVMBuildMul(c->b, const_i64(c, (uint64_t)kc->split_n), k, ""), nparts, "");
  return LLVMBuildMul(c->b, LLVMBuildUDiv(c->b, q, a, ""), a, "");
}

/* Calls the node's kernel; with `part` (part, nparts: i64 values) its _part
 * variant (kernel.h) where it has one, else the kernel on the part's slice of
 * the range glow_kcall_split named (the step's caller checks that one of them exists). */
int glow_cg_emit_call(glow_cg *c, const glow_graph *g, const glow_plan *p, const glow_node *n,
                      const glow_kcall *lowered, LLVMValueRef *part) {
  if (lowered->decl)
    return glow_extern_call(c->b, c->m, c->area, g, p, n, lowered);
  glow_kcall kc = *lowered;
  char kname[sizeof kc.kernel + 8];
  snprintf(kname, sizeof kname, "%s_part", kc.kernel);
  int has_part = part && LLVMGetNamedFunction(c->m, kname), slice = part && !has_part;
  GLOW_ASSERT(!slice || kc.split_n > 0);
  snprintf(kname, sizeof kname, "%s%s", kc.kernel, has_part ? "_part" : "");
  LLVMValueRef fn = LLVMGetNamedFunction(c->m, kname);
  if (!fn)
    return glow_node_error(g, n, "kernel %s is missing from this target's kernel library", kc.kernel);
  LLVMValueRef lo = NULL, count = NULL;
  if (slice) { /* units [lo, hi): the last part ends at split_n */
    lo = slice_start(c, &kc, part[0], part[1]);
    LLVMValueRef next = LLVMBuildAdd(c->b, part[0], const_i64(c, 1), "");
    LLVMValueRef last = LLVMBuildICmp(c->b, LLVMIntEQ, next, part[1], "");
    LLVMValueRef hi = LLVMBuildSelect(c->b, last, const_i64(c, (uint64_t)kc.split_n), slice_start(c, &kc, next, part[1]),
                                      "");
    count = LLVMBuildSub(c->b, hi, lo, "");
  }
  LLVMTypeRef arr_t = LLVMArrayType2(c->ptr, (uint64_t)(kc.ntensors ? kc.ntensors : 1));
  LLVMValueRef arr = LLVMBuildAlloca(c->b, arr_t, "t");
  for (int i = 0; i < kc.ntensors; i++) {
    LLVMValueRef idx[2] = {const_i64(c, 0), const_i64(c, (uint64_t)i)}, t = tensor_ptr(c, p, kc.tensors[i]);
    if (slice && kc.tensors[i] >= 0 && kc.split_bytes[i]) {
      LLVMValueRef off = LLVMBuildMul(c->b, lo, const_i64(c, (uint64_t)kc.split_bytes[i]), "");
      t = LLVMBuildInBoundsGEP2(c->b, c->i8, t, &off, 1, "");
    }
    LLVMBuildStore(c->b, t, LLVMBuildInBoundsGEP2(c->b, arr_t, arr, idx, 2, ""));
  }
  LLVMValueRef *vals = glow_xmalloc(sizeof *vals * (size_t)(kc.nparams ? kc.nparams : 1));
  for (int i = 0; i < kc.nparams; i++)
    vals[i] = const_i64(c, (uint64_t)kc.params[i]);
  LLVMValueRef params;
  if (slice) { /* the constants on the stack, the slice's count among them (SROA makes them values again) */
    LLVMTypeRef pt = LLVMArrayType2(c->i64, (uint64_t)kc.nparams);
    params = LLVMBuildAlloca(c->b, pt, "p");
    for (int i = 0; i < kc.nparams; i++) {
      LLVMValueRef idx[2] = {const_i64(c, 0), const_i64(c, (uint64_t)i)};
      LLVMBuildStore(c->b, i == kc.split_param ? count : vals[i], LLVMBuildInBoundsGEP2(c->b, pt, params, idx, 2, ""));
    }
  } else {
    char name[32];
    snprintf(name, sizeof name, "p%d", c->nparams++);
    params = const_global(c, LLVMConstArray2(c->i64, vals, (uint64_t)kc.nparams), name, 1);
  }
  free(vals);
  LLVMBasicBlockRef done = NULL;
  if (slice) { /* an empty slice (more parts than units) calls nothing */
    LLVMValueRef fnv = LLVMGetBasicBlockParent(LLVMGetInsertBlock(c->b));
    LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(c->ctx, fnv, "slice");
    done = LLVMAppendBasicBlockInContext(c->ctx, fnv, "done");
    LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntSGT, count, const_i64(c, 0), ""), run, done);
    LLVMPositionBuilderAtEnd(c->b, run);
  }
  LLVMValueRef args[4] = {arr, params, has_part ? part[0] : NULL, has_part ? part[1] : NULL};
  LLVMBuildCall2(c->b, LLVMGlobalGetValueType(fn), fn, args, has_part ? 4 : 2, "");
  if (slice) {
    LLVMBuildBr(c->b, done);
    LLVMPositionBuilderAtEnd(c->b, done);
  }
  return 0;
}

/* The pool's entry to parallel step `body` (the three areas, part, nparts):
 * `<body>.parts` (the areas' array, part, nparts) loads the areas and calls it.
 * The body keeps the step's attributes, the areas noalias among them: where the
 * kernel read them from the array instead, LLVM could not tell its stack tiles
 * from X or W, and stored squeezenet's 6 x 4 accumulators to the stack at every
 * multiply-add (its 1000-class conv 2.6x slower than in a 1-thread bundle). */
static LLVMValueRef parts_entry(glow_cg *c, LLVMValueRef body) {
  LLVMTypeRef pft_args[3] = {c->ptr, c->i32, c->i32};
  LLVMTypeRef step_t = LLVMFunctionType(LLVMVoidTypeInContext(c->ctx), pft_args, 3, 0);
  size_t len;
  const char *bname = LLVMGetValueName2(body, &len);
  char name[128];
  snprintf(name, sizeof name, "%.*s.parts", (int)len, bname);
  LLVMValueRef fn = LLVMAddFunction(c->m, name, step_t);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  add_enum_attr(c->ctx, fn, LLVMAttributeFunctionIndex, "nounwind");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c->ctx, fn, "entry"));
  LLVMTypeRef arr_t = LLVMArrayType2(c->ptr, 3);
  LLVMValueRef args[5];
  for (int a = 0; a < 3; a++) {
    LLVMValueRef idx[2] = {const_i64(c, 0), const_i64(c, (uint64_t)a)};
    args[a] = LLVMBuildLoad2(b, c->ptr, LLVMBuildInBoundsGEP2(b, arr_t, LLVMGetParam(fn, 0), idx, 2, ""), "");
  }
  args[3] = LLVMGetParam(fn, 1);
  args[4] = LLVMGetParam(fn, 2);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(body), body, args, 5, "");
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return fn;
}

/* The parts a parallel step is cut into: num_threads, or 2 or 4 times that where
 * each part still gets -num-threads-min-work, so that the pool (thread-pool.c)
 * can move parts from a late or slow thread to the others. Measured on the
 * 2-vCPU Zen 5 VM at 2 threads, alternating rounds against num_threads parts:
 * while one vCPU ran 1.3-1.7x slower than the other (the host's load, on and
 * off for hours) mobilenet_v2 3-4% faster (medians), resnet50 3%; while both
 * ran alike, within 2% either way (mnasnet0_5 up to 4% slower in one spell).
 * One part per thread for ConvMaxPool, whose parts both make the conv rows
 * their pool windows share, and for ConvWinograd: each piece of a unit (18
 * tiles x a block of output channels, kernels/conv-winograd.c) that a part
 * boundary cuts reads all of the block's transformed weights again (36 x C
 * floats per channel, from L3 where they exceed L2); at 2 threads, 7
 * alternating rounds against 4 parts per thread: resnet18 -4%, resnet50 -2.5%,
 * squeezenet1_1 -2%, googlenet -1% (medians). */
static int step_parts(const glow_cg *c, const glow_graph *g, const glow_node *n) {
  int64_t work = glow_step_work(g, n), part = (int64_t)c->thread_min_work * c->num_threads;
  int whole = n->op == GLOW_OP_CONV_MAX_POOL || n->op == GLOW_OP_CONV_WINOGRAD;
  int per_thread = whole ? 1 : work >= 4 * part ? 4 : work >= 2 * part ? 2 : 1;
  return c->num_threads * per_thread;
}

/* Runs parallel step `body` in nparts parts: through glow_parallel_for, the
 * runtime's thread pool (runtime/thread-pool.c), declared extern_weak so that a
 * program without the pool links and runs the step whole on its own thread. */
static void emit_parallel_call(glow_cg *c, LLVMValueRef body, int nparts) {
  LLVMValueRef fn = parts_entry(c, body);
  LLVMTypeRef for_args[3] = {c->ptr, c->ptr, c->i32};
  LLVMTypeRef for_t = LLVMFunctionType(LLVMVoidTypeInContext(c->ctx), for_args, 3, 0);
  if (!c->pfor) {
    c->pfor = LLVMAddFunction(c->m, "glow_parallel_for", for_t);
    LLVMSetLinkage(c->pfor, LLVMExternalWeakLinkage);
  }
  LLVMValueRef fn_entry = LLVMGetBasicBlockParent(LLVMGetInsertBlock(c->b));
  LLVMBasicBlockRef pool = LLVMAppendBasicBlockInContext(c->ctx, fn_entry, "pool");
  LLVMBasicBlockRef alone = LLVMAppendBasicBlockInContext(c->ctx, fn_entry, "alone");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(c->ctx, fn_entry, "next");
  LLVMValueRef have = LLVMBuildICmp(c->b, LLVMIntNE, c->pfor, LLVMConstNull(c->ptr), "");
  LLVMBuildCondBr(c->b, have, pool, alone);
  LLVMPositionBuilderAtEnd(c->b, pool);
  LLVMValueRef fargs[3] = {fn, c->areas, LLVMConstInt(c->i32, (unsigned long long)nparts, 0)};
  LLVMBuildCall2(c->b, for_t, c->pfor, fargs, 3, "");
  LLVMBuildBr(c->b, next);
  LLVMPositionBuilderAtEnd(c->b, alone);
  LLVMValueRef sargs[5] = {c->area[1], c->area[2], c->area[3], LLVMConstInt(c->i32, 0, 0), LLVMConstInt(c->i32, 1, 0)};
  LLVMBuildCall2(c->b, LLVMGlobalGetValueType(body), body, sargs, 5, "");
  LLVMBuildBr(c->b, next);
  LLVMPositionBuilderAtEnd(c->b, next);
}

/* The target's supports_op (target.h) on the lowered step: -1 after its reason, on the node. */
static int unsupported(const glow_target *tgt, const glow_graph *g, const glow_node *n, const glow_kcall *kc) {
  glow_target_step s = {kc->kernel, kc->params, kc->nparams, kc->decl != NULL};
  char why[512];
  if (!tgt->supports_op || tgt->supports_op(tgt, &s, why, sizeof why))
    return 0;
  return glow_node_error(g, n, "%s", why);
}

/* One step of the schedule: an internal function of the three areas that calls
 * its kernel with constant arguments (the kernel is inlined and specialized
 * there), built at the builder's position (the entry's body is saved and
 * restored). Steps in functions of their own keep the optimizer's work linear
 * in the graph: one function holding every inlined kernel made compile time
 * grow with the square of the node count. */
static int emit_step(glow_cg *c, const glow_graph *g, const glow_plan *p, const glow_node *n, int step,
                     const char *net) {
  glow_kcall kc;
  memset(&kc, 0, sizeof kc);
  if (glow_op_get(n->op)->lower(g, n, &kc) || unsupported(c->tgt, g, n, &kc)) {
    glow_kcall_free(&kc);
    return -1;
  }
  if (c->gpu) {
    int rc = glow_gpu_emit_step(c, g, p, n, &kc, step, net);
    glow_kcall_free(&kc);
    return rc;
  }
  char pname[sizeof kc.kernel + 8];
  snprintf(pname, sizeof pname, "%s_part", kc.kernel);
  int parallel = c->num_threads > 1 && !kc.decl && (LLVMGetNamedFunction(c->m, pname) || kc.split_n > 1) &&
                 glow_step_work(g, n) >= (int64_t)c->thread_min_work * c->num_threads;
  /* The three areas, then (parallel) part and nparts: parts_entry calls it from the pool. */
  LLVMTypeRef args[5] = {c->ptr, c->ptr, c->ptr, c->i32, c->i32};
  LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(c->ctx), args, parallel ? 5 : 3, 0);
  char name[96];
  snprintf(name, sizeof name, "%.40s.step%d.%.32s", net, step, glow_op_get(n->op)->onnx_name);
  LLVMValueRef fn = LLVMAddFunction(c->m, name, ft);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  glow_cg_step_attrs(c, fn);
  add_enum_attr(c->ctx, fn, LLVMAttributeFunctionIndex, "noinline");
  unsigned line = glow_listing_line(step);
  char dname[160] = "";
  if (c->dbg)
    glow_step_debug_name(dname, sizeof dname, net, step, n);
  LLVMMetadataRef sp = glow_dbg_function(c->dbg, fn, dname, line, 0);
  LLVMBasicBlockRef caller = LLVMGetInsertBlock(c->b);
  LLVMValueRef outer[4] = {NULL, c->area[1], c->area[2], c->area[3]};
  LLVMPositionBuilderAtEnd(c->b, LLVMAppendBasicBlockInContext(c->ctx, fn, "entry"));
  glow_dbg_at(c->dbg, c->b, sp, line);
  LLVMValueRef part[2] = {NULL, NULL};
  for (int a = 1; a <= 3; a++)
    c->area[a] = LLVMGetParam(fn, (unsigned)(a - 1));
  if (parallel) { /* part and nparts widened for the kernel */
    part[0] = LLVMBuildSExt(c->b, LLVMGetParam(fn, 3), c->i64, "");
    part[1] = LLVMBuildSExt(c->b, LLVMGetParam(fn, 4), c->i64, "");
  }
  int rc = glow_cg_emit_call(c, g, p, n, &kc, parallel ? part : NULL);
  glow_kcall_free(&kc);
  LLVMBuildRetVoid(c->b);
  for (int a = 1; a <= 3; a++)
    c->area[a] = outer[a];
  LLVMPositionBuilderAtEnd(c->b, caller);
  glow_dbg_at(c->dbg, c->b, c->entry_sp, line);
  glow_instr_before(c->ins, c->b, c->area, step, n);
  if (parallel)
    emit_parallel_call(c, fn, step_parts(c, g, n));
  else
    LLVMBuildCall2(c->b, ft, fn, outer + 1, 3, "");
  glow_instr_after(c->ins, c->b, c->area, step, n);
  return rc;
}

/* -weights=embedded: the constant area as `const uint8_t <net>_constant_weights[]`,
 * 64-byte aligned in its own read-only section, so it stays in flash and a linker
 * script can place it. */
static LLVMValueRef embed_weights(glow_cg *c, const glow_graph *g, const glow_plan *p, const char *net) {
  void *data;
  size_t size;
  glow_emit_weights_bin(g, p, &data, &size);
  LLVMValueRef init = LLVMConstStringInContext2(c->ctx, data, size, 1);
  free(data);
  char name[300], section[300];
  snprintf(name, sizeof name, "%s_constant_weights", net);
  snprintf(section, sizeof section, ".rodata.glow.%s", net);
  LLVMValueRef gv = const_global(c, init, name, 0);
  LLVMSetAlignment(gv, GLOW_ALIGN);
  LLVMSetSection(gv, section);
  return gv;
}

/* -weights=embedded,zst: the packed weights as `const uint8_t <net>_constant_weights_zst[]`
 * in the same read-only section; the runtime unpacks them into RAM (glow_weights_unpack). */
static void embed_packed(glow_cg *c, const glow_bundle_options *o, const char *net) {
  LLVMValueRef init = LLVMConstStringInContext2(c->ctx, o->packed, o->packed_size, 1);
  char name[300], section[300];
  snprintf(name, sizeof name, "%s_constant_weights_zst", net);
  snprintf(section, sizeof section, ".rodata.glow.%s", net);
  LLVMValueRef gv = const_global(c, init, name, 0);
  LLVMSetAlignment(gv, 8);
  LLVMSetSection(gv, section);
}

/* The embedded weights' address, hidden from the optimizer behind an empty asm:
 * kernels then read them as they read a caller's buffer, instead of LLVM folding
 * loads of known bytes into immediates (code growth, slow compiles). */
static LLVMValueRef opaque_address(glow_cg *c, LLVMValueRef gv) {
  LLVMTypeRef fnt = LLVMFunctionType(c->ptr, &c->ptr, 1, 0);
  LLVMValueRef asm_ = LLVMGetInlineAsm(fnt, "", 0, "=r,0", 4, 0, 0, LLVMInlineAsmDialectATT, 0);
  return LLVMBuildCall2(c->b, fnt, asm_, &gv, 1, "weights");
}

static int build_entry(glow_cg *c, const glow_graph *g, const glow_plan *p, const char *entry, LLVMValueRef weights) {
  LLVMTypeRef args[3] = {c->ptr, c->ptr, c->ptr};
  LLVMValueRef fn = LLVMAddFunction(c->m, entry, LLVMFunctionType(c->i32, args, 3, 0));
  glow_cg_step_attrs(c, fn);
  c->entry_sp = glow_dbg_function(c->dbg, fn, entry, glow_listing_line(-1), 1);
  c->b = LLVMCreateBuilderInContext(c->ctx);
  LLVMPositionBuilderAtEnd(c->b, LLVMAppendBasicBlockInContext(c->ctx, fn, "entry"));
  glow_dbg_at(c->dbg, c->b, c->entry_sp, glow_listing_line(-1));
  glow_instr_entry(c->ins, c->b);
  for (int a = 1; a <= 3; a++)
    c->area[a] = LLVMGetParam(fn, (unsigned)(a - 1));
  if (weights) /* the constantWeight argument is unused (NULL is fine) */
    c->area[1] = opaque_address(c, weights);
  if (c->num_threads > 1) { /* the areas, for parallel steps (emit_parallel_call) */
    LLVMTypeRef arr_t = LLVMArrayType2(c->ptr, 3);
    c->areas = LLVMBuildAlloca(c->b, arr_t, "areas");
    for (int a = 1; a <= 3; a++) {
      LLVMValueRef idx[2] = {const_i64(c, 0), const_i64(c, (uint64_t)(a - 1))};
      LLVMBuildStore(c->b, c->area[a], LLVMBuildInBoundsGEP2(c->b, arr_t, c->areas, idx, 2, ""));
    }
  }
  int rc = 0;
  for (int s = 0; s < p->norder; s++)
    rc |= emit_step(c, g, p, &g->nodes[p->order[s]], s, entry);
  glow_dbg_at(c->dbg, c->b, c->entry_sp, glow_listing_line(p->norder)); /* the listing's last line */
  LLVMBuildRet(c->b, LLVMConstInt(c->i32, 0, 0));
  LLVMDisposeBuilder(c->b);
  return rc;
}

/* A GPU target's steps, in schedule order (no entry: that is the host's). */
static int build_gpu_steps(glow_cg *c, const glow_graph *g, const glow_plan *p, const char *net) {
  c->b = LLVMCreateBuilderInContext(c->ctx);
  int rc = 0;
  for (int s = 0; s < p->norder; s++)
    rc |= emit_step(c, g, p, &g->nodes[p->order[s]], s, net);
  LLVMDisposeBuilder(c->b);
  return rc;
}

/* The three areas must fit the target's address space together: on a 32-bit target (armv7,
 * Cortex-M) a larger plan would wrap the bundle's offsets and the runtime could not allocate it. */
static int areas_fit(LLVMTargetMachineRef tm, const glow_plan *p, const char *triple) {
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  unsigned bits = 8 * LLVMPointerSize(td);
  LLVMDisposeTargetData(td);
  if (bits >= 64)
    return 0;
  uint64_t space = (uint64_t)1 << bits;
  if (p->const_size < space && p->mutable_size < space - p->const_size &&
      p->act_size < space - p->const_size - p->mutable_size)
    return 0;
  glow_error("-target", "the bundle needs %llu bytes (constant weights %llu, mutable weights %llu, activations %llu), "
             "more than the %u-bit address space of %s: compile it for a 64-bit target, or make the model smaller "
             "(e.g. its inputs, through -model-input)",
             (unsigned long long)(p->const_size + p->mutable_size + p->act_size), (unsigned long long)p->const_size,
             (unsigned long long)p->mutable_size, (unsigned long long)p->act_size, bits, triple);
  return -1;
}

/* LLVM's loop unroller also unrolls loops by a runtime trip count where the
 * CPU's scheduling model asks for it (znver3, skylake, ...). Every trip count a
 * kernel has that matters is a constant once inlined, and the loops that are
 * left (tile ranges, clipped window rows) gained nothing from it: resnet18,
 * mobilenet_v2, efficientnet_b0 and int8 resnet18 ran as fast without it
 * (A/B on an AVX2 EPYC), while it made 30-35% of the compile time (resnet18
 * 6.6 -> 4.3 s) and the object a third larger. Process-wide, set once: the
 * C API has no per-pipeline switch for it (LLVMPassBuilderOptionsSetLoopUnrolling
 * would also stop the full unrolling the register tiles need).
 * -scalarize-load-store: the scalarizer runs only in the NVPTX pipeline
 * (optimize-halves.c), and there it also splits vector loads and stores, so that
 * the NVPTX backend sees no `load <16 x i8>, align 1`: LLVM 19 lowers that to
 * ld.v4.u32 whatever the alignment (CUDA_ERROR_MISALIGNED_ADDRESS on the GPU:
 * QLinearConv's depthwise rows, qconv4_plane_row). Its load-store vectorizer then
 * joins the element accesses again where their alignment is known. */
static void llvm_options_once(void) {
  static int done;
  if (done)
    return;
  done = 1;
  const char *argv[] = {"glowc", "-unroll-runtime=false", "-scalarize-load-store"};
  LLVMParseCommandLineOptions(3, argv, NULL);
}

int glow_codegen(const glow_graph *g, const glow_plan *p, const glow_bundle_options *o, void **obj, size_t *obj_size) {
  const glow_target *tgt = glow_target_for_triple(o->target.triple);
  if (!tgt) {
    glow_error("-target", "no kernels for target '%s' in this toolchain; available:", o->target.triple);
    for (int i = 0; i < glow_ntargets; i++)
      fprintf(stderr, "  %-8s -target=%s  (-mcpu: %s)\n", glow_targets[i]->name, glow_targets[i]->kernel_triple,
              glow_targets[i]->cpu_examples);
    return -1;
  }
  if (tgt->hosts && glow_gpu_check_options(o))
    return -1;
  if (o->instrument_debug && glow_instrument_debug_format_check(glow_instrument_debug_format(o)))
    return -1;
  glow_resolved_target rt;
  LLVMTargetMachineRef tm = glow_target_machine(&o->target, tgt, &rt);
  if (!tm)
    return -1;
  if (areas_fit(tm, p, tgt->kernel_triple)) {
    LLVMDisposeTargetMachine(tm);
    free(rt.triple);
    free(rt.cpu);
    free(rt.features);
    return -1;
  }

  glow_cg c;
  memset(&c, 0, sizeof c);
  c.ctx = LLVMContextCreate();
  int rc = -1;
  if (glow_kernels_read(c.ctx, tgt, &c.m))
    goto done;
  const char *net = o->network_name;
  LLVMSetModuleIdentifier(c.m, net, strlen(net));
  LLVMSetSourceFileName(c.m, net, strlen(net));
  LLVMSetTarget(c.m, rt.triple);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(c.m, td);
  LLVMDisposeTargetData(td);
  glow_target_module_abi(c.m, o->target.abi);
  c.ptr = LLVMPointerTypeInContext(c.ctx, 0);
  c.i8 = LLVMInt8TypeInContext(c.ctx);
  c.i32 = LLVMInt32TypeInContext(c.ctx);
  c.i64 = LLVMInt64TypeInContext(c.ctx);

  c.num_threads = o->num_threads;
  c.thread_min_work = o->thread_min_work; /* the driver's default: GLOW_THREAD_MIN_WORK */
  c.gpu = tgt->hosts != NULL;
  c.tgt = tgt;
  prepare_kernels(&c, rt.cpu, rt.features);
  define_target_flags(&c, tgt, tm, rt.triple);
  c.dbg = glow_dbg_create(c.m, o);
  c.ins = glow_instr_create(c.m, g, p, o);
  LLVMValueRef weights = NULL;
  if (o->packed)
    embed_packed(&c, o, net);
  else if (o->weights & GLOW_WEIGHTS_EMBEDDED)
    weights = embed_weights(&c, g, p, net);
  if (c.gpu ? build_gpu_steps(&c, g, p, net) : build_entry(&c, g, p, o->entry_name ? o->entry_name : net, weights))
    goto done;
  if (o->dynamic_api && !c.gpu)
    glow_emit_config(c.m, g, p, net);

  glow_kernels_read_used(c.m);
  glow_dbg_finish(c.dbg);
  c.dbg = NULL;
  char *msg = NULL;
  if (LLVMVerifyModule(c.m, LLVMReturnStatusAction, &msg)) {
    fprintf(stderr, "glowc: internal error: invalid LLVM module: %s\n", msg);
    abort();
  }
  LLVMDisposeMessage(msg);
  llvm_options_once();
  if (o->dump_llvm_ir)
    glow_llvm_dump_ir(c.m, "before");
  /* Two halves on two threads (optimize-halves.c), each with a target machine of its
   * own; not where the module holds the weights (they would be copied to each half). */
  LLVMTargetMachineRef tms[2] = {tm, NULL};
  glow_resolved_target rt2;
  int share = !c.gpu && !o->packed && !(o->weights & GLOW_WEIGHTS_EMBEDDED);
  if (share && (tms[1] = glow_target_machine(&o->target, tgt, &rt2))) {
    free(rt2.triple);
    free(rt2.cpu);
    free(rt2.features);
  }
  char prefix[64];
  snprintf(prefix, sizeof prefix, "%.40s.step", o->entry_name ? o->entry_name : net);
  int bad = glow_codegen_optimize(c.ctx, &c.m, tms, prefix);
  if (tms[1])
    LLVMDisposeTargetMachine(tms[1]);
  if (bad)
    goto done;
  if (getenv("GLOWC_DUMP_LLVM"))
    LLVMDumpModule(c.m);
  if (o->module_only) { /* -entry: linked with the other entries' (link-entries.c) */
    rc = glow_module_bitcode(c.m, obj, obj_size);
  } else if (!c.gpu) {
    rc = glow_llvm_output(tm, c.m, o, &rt, 0, obj, obj_size);
  } else { /* the PTX, into the host's object */
    rc = glow_gpu_emit_object(&c, tm, g, p, o, &rt, obj, obj_size);
  }
done:
  glow_dbg_finish(c.dbg);
  glow_instr_free(c.ins);
  if (c.m)
    LLVMDisposeModule(c.m);
  LLVMContextDispose(c.ctx);
  free(c.gsteps);
  LLVMDisposeTargetMachine(tm);
  free(rt.triple);
  free(rt.cpu);
  free(rt.features);
  return rc;
}
