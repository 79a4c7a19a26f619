/* require each entry's optimized module (glow_codegen with module_only); links them into
 * one module, adds the dynamic API's config of all the entries, and makes the bundle's
 * object (-entry: several entries in one bundle, as Glow's BundleSaver saves functions). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>

#include "codegen/codegen-internal.h"
#include "codegen/llvm-output.h"

int glow_module_bitcode(LLVMModuleRef m, void **out, size_t *size) {
  LLVMMemoryBufferRef mb = LLVMWriteBitcodeToMemoryBuffer(m);
  *size = LLVMGetBufferSize(mb);
  *out = glow_xmalloc(*size ? *size : 1);
  memcpy(*out, LLVMGetBufferStart(mb), *size);
  LLVMDisposeMemoryBuffer(mb);
  return 0;
}

/* The modules, in entry order, linked into the first (NULL after an error). Each entry
 * exports only its entry function; their internal steps, kernels and parameters stay
 * apart (the linker renames internal names that meet). */
static LLVMModuleRef link_all(LLVMContextRef ctx, void *const *modules, const size_t *sizes, int n) {
  LLVMModuleRef whole = NULL;
  for (int k = 0; k < n; k++) {
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(modules[k], sizes[k], "entry", 0);
    LLVMModuleRef part = NULL;
    int bad = LLVMParseBitcodeInContext2(ctx, mb, &part);
    LLVMDisposeMemoryBuffer(mb);
    if (bad) {
      glow_error(NULL, "internal error: the module of entry %d does not read back from bitcode", k + 1);
    } else if (!whole) {
      whole = part;
      continue;
    } else if (!LLVMLinkModules2(whole, part)) { /* part is destroyed either way */
      continue;
    } else {
      glow_error(NULL, "internal error: the module of entry %d does not link with the others", k + 1);
    }
    if (whole)
      LLVMDisposeModule(whole);
    return NULL;
  }
  return whole;
}

int glow_codegen_link(const glow_graph *u, const glow_plan *up, const glow_bundle_options *o, void *const *modules,
                      const size_t *sizes, int n, void **obj, size_t *obj_size) {
  *obj = NULL;
  *obj_size = 0;
  const glow_target *tgt = glow_target_for_triple(o->target.triple);
  GLOW_ASSERT(tgt && !tgt->hosts); /* each entry's codegen checked it */
  glow_resolved_target rt;
  LLVMTargetMachineRef tm = glow_target_machine(&o->target, tgt, &rt);
  if (!tm)
    return -1;
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = link_all(ctx, modules, sizes, n);
  int rc = -1;
  if (m) {
    const char *net = o->network_name;
    LLVMSetModuleIdentifier(m, net, strlen(net));
    LLVMSetSourceFileName(m, net, strlen(net));
    if (o->dynamic_api)
      glow_emit_config(m, u, up, net);
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
      fprintf(stderr, "glowc: internal error: invalid LLVM module after linking the entries: %s\n", msg);
      abort();
    }
    LLVMDisposeMessage(msg);
    rc = glow_llvm_output(tm, m, o, &rt, 0, obj, obj_size);
    LLVMDisposeModule(m);
  }
  LLVMContextDispose(ctx);
  LLVMDisposeTargetMachine(tm);
  free(rt.triple);
  free(rt.cpu);
  free(rt.features);
  return rc;
}
