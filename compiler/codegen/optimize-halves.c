/* require a verified bundle module; optimizes it (LLVM's O3) on two threads.
 * The middle-end is about half of a compile, and it works on one function at a
 * time: the steps of the schedule (one function each, codegen.c) are split by
 * an estimate of their work (the instructions of the kernel code each one
 * calls, before inlining) into two copies of the module, each parsed into its
 * own LLVM context and optimized on its own thread with its own target machine,
 * then linked back into one module for the one object file. Each half keeps the
 * kernels its steps call and its own steps; the entry and the exported globals
 * live in half 0, the other half's steps are declarations there. The split
 * depends on the module alone, not on the machine or its load, so neither do
 * the bytes. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "codegen/codegen-internal.h"

#define HALVES 2
#define PIPELINE "globaldce,default<O3>" /* unused kernels go first: no time is spent on them */
/* NVPTX: LLVM 19 expands a variable-index extractelement of a vector held in
 * registers through a stack temporary that it then reads with a generic ld of
 * its .local address (no cvta.local): CUDA_ERROR_ILLEGAL_ADDRESS on the GPU
 * (ConvTranspose's register tile did it). The scalarizer turns those into
 * selects first; a GPU thread is scalar anyway (tests/cuda/ptx-lint.py). */
#define PIPELINE_NVPTX PIPELINE ",function(scalarizer)"

typedef struct {
  const char *bc; /* the whole module as bitcode */
  size_t bc_size;
  const char *prefix; /* "<entry>.step": step functions are <prefix><i>.<op> */
  const unsigned char *half_of; /* by step number */
  long nsteps;
  int half;
  const char *passes;
  LLVMTargetMachineRef tm;
  LLVMMemoryBufferRef out; /* the optimized half as bitcode */
  char *err;               /* or why not (malloc'd) */
} half_job;

/* The step number of a step function, -1 for any other function. */
static long step_of(LLVMValueRef f, const char *prefix) {
  size_t len, pl = strlen(prefix);
  const char *name = LLVMGetValueName2(f, &len);
  if (len <= pl || strncmp(name, prefix, pl))
    return -1;
  char *end;
  long s = strtol(name + pl, &end, 10);
  return end > name + pl && *end == '.' ? s : -1;
}

/* f becomes a declaration of the same name and type (its uses move to it). */
static void drop_body(LLVMModuleRef m, LLVMValueRef f) {
  size_t len;
  char *name = glow_xstrdup(LLVMGetValueName2(f, &len));
  LLVMSetValueName2(f, "", 0);
  LLVMValueRef decl = LLVMAddFunction(m, name, LLVMGlobalGetValueType(f));
  LLVMReplaceAllUsesWith(f, decl);
  LLVMDeleteFunction(f);
  free(name);
}

/* Instructions of f and of every function it calls, each counted once: the
 * code that inlining brings into a step (kernels call no step and do not recurse). */
static long code_size(LLVMValueRef f, LLVMValueRef **seen, int *nseen, int *cap) {
  for (int i = 0; i < *nseen; i++)
    if ((*seen)[i] == f)
      return 0;
  if (*nseen == *cap)
    *seen = glow_xrealloc(*seen, sizeof **seen * (size_t)(*cap *= 2));
  (*seen)[(*nseen)++] = f;
  long n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      n++;
      LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
      if (callee && LLVMIsAFunction(callee) && !LLVMIsDeclaration(callee))
        n += code_size(callee, seen, nseen, cap);
    }
  return n;
}

/* half_of[step]: the longest steps first, each to the half with less work so far. */
static unsigned char *split_steps(LLVMModuleRef m, const char *prefix, long *nsteps) {
  long n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    long s = step_of(f, prefix);
    n = s >= n ? s + 1 : n;
  }
  long *cost = glow_xcalloc((size_t)n + 1, sizeof *cost);
  int cap = 64;
  LLVMValueRef *seen = glow_xmalloc(sizeof *seen * (size_t)cap);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    long s = step_of(f, prefix);
    int nseen = 0;
    if (s >= 0)
      cost[s] = code_size(f, &seen, &nseen, &cap);
  }
  free(seen);
  unsigned char *half_of = glow_xcalloc((size_t)n + 1, 1), *done = glow_xcalloc((size_t)n + 1, 1);
  long load[HALVES] = {0};
  for (long k = 0; k < n; k++) { /* n^2 in the steps: microseconds next to optimizing them */
    long best = -1;
    for (long s = 0; s < n; s++)
      if (!done[s] && (best < 0 || cost[s] > cost[best]))
        best = s;
    int h = 0;
    for (int i = 1; i < HALVES; i++)
      h = load[i] < load[h] ? i : h;
    half_of[best] = (unsigned char)h;
    load[h] += cost[best];
    done[best] = 1;
  }
  free(done);
  free(cost);
  *nsteps = n;
  return half_of;
}

/* Keeps this half's steps (visible to the linker for now), the entry and the
 * exported globals only in half 0 (made internal elsewhere, so that globaldce drops them). */
static void keep_half(LLVMModuleRef m, const char *prefix, const unsigned char *half_of, long nsteps, int half) {
  int n = 0, cap = 64;
  LLVMValueRef *drop = glow_xmalloc(sizeof *drop * (size_t)cap);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    long s = step_of(f, prefix);
    if (s >= 0) {
      LLVMSetLinkage(f, LLVMExternalLinkage);
      LLVMSetVisibility(f, LLVMHiddenVisibility);
    }
    if ((s >= 0 && s < nsteps && half_of[s] != half) ||
        (s < 0 && half != 0 && LLVMGetLinkage(f) == LLVMExternalLinkage)) {
      if (n == cap)
        drop = glow_xrealloc(drop, sizeof *drop * (size_t)(cap *= 2));
      drop[n++] = f;
    }
  }
  for (int i = 0; i < n; i++)
    drop_body(m, drop[i]);
  free(drop);
  for (LLVMValueRef gv = LLVMGetFirstGlobal(m); half != 0 && gv; gv = LLVMGetNextGlobal(gv))
    if (!LLVMIsDeclaration(gv) && LLVMGetLinkage(gv) == LLVMExternalLinkage)
      LLVMSetLinkage(gv, LLVMInternalLinkage);
}

/* NULL, or why LLVM could not run the passes (malloc'd). */
static char *run_passes(LLVMModuleRef m, const char *passes, LLVMTargetMachineRef tm) {
  LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(m, passes, tm, pbo);
  LLVMDisposePassBuilderOptions(pbo);
  if (!e)
    return NULL;
  char *msg = LLVMGetErrorMessage(e), *copy = glow_xstrdup(msg);
  LLVMDisposeErrorMessage(msg);
  return copy;
}

static int report(char *err) {
  if (!err)
    return 0;
  glow_error(NULL, "LLVM optimization failed: %s", err);
  free(err);
  return -1;
}

static void *run_half(void *arg) {
  half_job *j = arg;
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef in = LLVMCreateMemoryBufferWithMemoryRange(j->bc, j->bc_size, "bundle", 0);
  LLVMModuleRef m;
  if (LLVMParseBitcodeInContext2(ctx, in, &m)) {
    j->err = glow_xstrdup("the bundle module does not read back from bitcode");
  } else {
    keep_half(m, j->prefix, j->half_of, j->nsteps, j->half);
    if (!(j->err = run_passes(m, j->passes, j->tm)))
      j->out = LLVMWriteBitcodeToMemoryBuffer(m);
    LLVMDisposeModule(m);
  }
  LLVMDisposeMemoryBuffer(in);
  LLVMContextDispose(ctx);
  return NULL;
}

int glow_codegen_optimize(LLVMContextRef ctx, LLVMModuleRef *m, LLVMTargetMachineRef tm[2], const char *prefix) {
  char *triple = LLVMGetTargetMachineTriple(tm[0]);
  const char *passes = strncmp(triple, "nvptx", 5) ? PIPELINE : PIPELINE_NVPTX;
  LLVMDisposeMessage(triple);
  int steps = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(*m); f; f = LLVMGetNextFunction(f))
    steps += step_of(f, prefix) >= 0;
  if (steps < HALVES || !tm[1]) /* nothing to share */
    return report(run_passes(*m, passes, tm[0]));
  /* The kernels no step calls go before the copies: each half reads less. */
  if (report(run_passes(*m, "globaldce", tm[0])))
    return -1;
  long nsteps;
  unsigned char *half_of = split_steps(*m, prefix, &nsteps);
  LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(*m);
  half_job job[HALVES];
  pthread_t th[HALVES];
  int started[HALVES] = {0};
  for (int h = 0; h < HALVES; h++)
    job[h] = (half_job){LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), prefix, half_of, nsteps, h, passes, tm[h], NULL, NULL};
  for (int h = 1; h < HALVES; h++)
    started[h] = !pthread_create(&th[h], NULL, run_half, &job[h]);
  run_half(&job[0]);
  for (int h = 1; h < HALVES; h++) {
    if (started[h])
      pthread_join(th[h], NULL);
    else
      run_half(&job[h]); /* no thread to be had: in turn */
  }
  LLVMDisposeMemoryBuffer(bc);
  free(half_of);

  int rc = 0;
  LLVMModuleRef whole = NULL;
  for (int h = 0; h < HALVES; h++) {
    LLVMModuleRef part = NULL;
    if (job[h].err) {
      rc = report(job[h].err);
      job[h].err = NULL;
    } else if (!rc && LLVMParseBitcodeInContext2(ctx, job[h].out, &part)) {
      glow_error(NULL, "internal error: an optimized half of the bundle does not read back from bitcode");
      rc = -1;
    } else if (!rc && whole && LLVMLinkModules2(whole, part)) { /* part is destroyed either way */
      glow_error(NULL, "internal error: the optimized halves of the bundle do not link");
      rc = -1;
    } else if (!rc && !whole) {
      whole = part;
    }
    free(job[h].err);
    if (job[h].out)
      LLVMDisposeMemoryBuffer(job[h].out);
  }
  if (rc) {
    if (whole)
      LLVMDisposeModule(whole);
    return -1;
  }
  /* The steps are the bundle's own again: nothing but the entry and its data is exported. */
  for (LLVMValueRef f = LLVMGetFirstFunction(whole); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && step_of(f, prefix) >= 0) {
      LLVMSetVisibility(f, LLVMDefaultVisibility);
      LLVMSetLinkage(f, LLVMInternalLinkage);
    }
  LLVMDisposeModule(*m);
  *m = whole;
  return 0;
}
