/* The target's kernel library (bitcode embedded in the toolchain), read lazily: the
 * module holds every kernel's signature at once, and a kernel's body is read only when
 * the bundle calls it, directly or through kernels it calls. The library is 2.4 MB of
 * bitcode with about 2000 functions; reading all of it took 0.65 s, most of a small
 * model's compile, where reading the signatures takes a few milliseconds.
 * LLVM-C has no call that reads one function's body; the legacy FunctionPassManager
 * reads it before it runs, so an empty one serves. */
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>

#include "codegen/codegen-internal.h"

int glow_kernels_read(LLVMContextRef ctx, const glow_target *tgt, LLVMModuleRef *m) {
  LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange((const char *)tgt->bitcode, *tgt->bitcode_size,
                                                                 "kernels", 0);
  if (LLVMGetBitcodeModuleInContext2(ctx, mb, m)) { /* the module owns mb only on success */
    LLVMDisposeMemoryBuffer(mb);
    *m = NULL;
    glow_error(NULL, "the %s kernel bitcode embedded in this toolchain is unreadable (rebuild glowc)", tgt->name);
    return -1;
  }
  return 0;
}

/* A function whose body is still in the bitcode: neither a declaration nor holding blocks. */
static int unread(LLVMValueRef f) { return !LLVMIsDeclaration(f) && !LLVMCountBasicBlocks(f); }

void glow_kernels_read_used(LLVMModuleRef m) {
  LLVMPassManagerRef fpm = LLVMCreateFunctionPassManagerForModule(m);
  LLVMInitializeFunctionPassManager(fpm);
  /* A body read may use other kernels: until no used function is left unread. The
   * uses are those of the bundle's code, of the bodies read and of global initializers. */
  for (int more = 1; more;) {
    more = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
      if (unread(f) && LLVMGetFirstUse(f)) {
        LLVMRunFunctionPassManager(fpm, f);
        more = 1;
      }
  }
  LLVMFinalizeFunctionPassManager(fpm);
  LLVMDisposePassManager(fpm);
  /* The rest nothing calls: gone, as globaldce would take them. */
  for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    if (unread(f))
      LLVMDeleteFunction(f);
  }
}
