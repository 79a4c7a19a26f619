/* require an optimized module; makes the bundle's code from it, with Glow's LLVM dumps and
 * assembly on the way, in process or through external LLVM tools (llvm-tools.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen/llvm-output.h"

void glow_llvm_dump_ir(LLVMModuleRef m, const char *when) {
  char *s = LLVMPrintModuleToString(m);
  printf("LLVM module %s optimizations:\n", when);
  fputs(s, stdout);
  fflush(stdout);
  LLVMDisposeMessage(s);
}

/* The assembly of a copy of m: emitting runs the code generator's IR passes over the
 * module it is given, and the object is made from the untouched one, so that it is the same
 * bytes with or without the assembly. */
static int emit_asm_copy(LLVMTargetMachineRef tm, LLVMModuleRef m, const char *triple, char **text, size_t *size) {
  LLVMModuleRef copy = LLVMCloneModule(m);
  void *out = NULL;
  int rc = glow_codegen_emit(tm, copy, LLVMAssemblyFile, triple, &out, size);
  LLVMDisposeModule(copy);
  *text = out;
  return rc;
}

static void print_asm(const char *text, size_t size) {
  fwrite(text, 1, size, stdout);
  fflush(stdout);
}

/* A GPU target's code is its assembly; the external tools make objects, so they are refused. */
static int output_assembly(LLVMTargetMachineRef tm, LLVMModuleRef m, const glow_bundle_options *o,
                           const glow_resolved_target *rt, void **out, size_t *size) {
  if (o->llvm_opt || o->llvm_compiler) {
    glow_error(o->llvm_compiler ? "-llvm-compiler" : "-llvm-opt",
               "not for %s: its code is assembly (PTX) put into the host's object, which the external LLVM tools "
               "do not make; leave it out", rt->triple);
    return -1;
  }
  if (glow_codegen_emit(tm, m, LLVMAssemblyFile, rt->triple, out, size))
    return -1;
  if (o->dump_llvm_asm)
    print_asm(*out, *size);
  if (o->asm_text) {
    *o->asm_text = glow_xmalloc(*size ? *size : 1);
    memcpy(*o->asm_text, *out, *size);
    *o->asm_size = *size;
  }
  return 0;
}

/* The stack of an object that -llvm-compiler (or the in-process step after -llvm-opt) makes:
 * measured on glowc's own object of a copy of m, which is then dropped. */
static int measure_copy(LLVMTargetMachineRef tm, LLVMModuleRef m, const char *triple, glow_stack_usage *u) {
  LLVMModuleRef copy = LLVMCloneModule(m);
  glow_stack_probe *probe = glow_stack_probe_begin(copy);
  void *obj = NULL;
  size_t size;
  int rc = glow_codegen_emit(tm, copy, LLVMObjectFile, triple, &obj, &size);
  rc |= glow_stack_probe_end(probe, copy, rc ? NULL : u);
  u->own_codegen = 1;
  free(obj);
  LLVMDisposeModule(copy);
  return rc ? -1 : 0;
}

int glow_llvm_output(LLVMTargetMachineRef tm, LLVMModuleRef m, const glow_bundle_options *o,
                     const glow_resolved_target *rt, int assembly, void **out, size_t *size) {
  *out = NULL;
  *size = 0;
  if (o->dump_llvm_ir)
    glow_llvm_dump_ir(m, "after");
  if (assembly)
    return output_assembly(tm, m, o, rt, out, size);
  int external = o->llvm_opt || o->llvm_compiler;
  char *text = NULL, *tool_text = NULL;
  size_t text_size = 0, tool_text_size = 0;
  int rc = 0;
  glow_stack_probe *probe = o->stack && !external ? glow_stack_probe_begin(m) : NULL;
  if (o->stack && external)
    rc = measure_copy(tm, m, rt->triple, o->stack);
  /* -dump-llvm-asm prints what the target machine makes of the module, as Glow does, even
   * where external tools make the object (and -llvm-save-asm's file) afterwards. */
  if (!rc && (o->dump_llvm_asm || (o->asm_text && !external)))
    rc = emit_asm_copy(tm, m, rt->triple, &text, &text_size);
  if (!rc && o->dump_llvm_asm)
    print_asm(text, text_size);
  if (!rc && external)
    rc = glow_llvm_tools(tm, m, o, rt, out, size, o->asm_text != NULL, &tool_text, &tool_text_size);
  else if (!rc)
    rc = glow_codegen_emit(tm, m, LLVMObjectFile, rt->triple, out, size);
  if (probe && glow_stack_probe_end(probe, m, rc ? NULL : o->stack))
    rc = -1;
  if (external) {
    free(text);
    text = tool_text;
    text_size = tool_text_size;
  }
  if (!rc && o->asm_text) {
    *o->asm_text = text;
    *o->asm_size = text_size;
    text = NULL;
  }
  free(text);
  if (rc) {
    free(*out);
    *out = NULL;
  }
  return rc;
}
