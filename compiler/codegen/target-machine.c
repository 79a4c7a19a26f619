/* LLVM target machines from -target/-mcpu/-mattr/-relocation-model. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "codegen/codegen-internal.h"

static void init_llvm(void) {
  static int done;
  if (done)
    return;
  LLVMInitializeAllTargetInfos();
  LLVMInitializeAllTargets();
  LLVMInitializeAllTargetMCs();
  LLVMInitializeAllAsmPrinters();
  done = 1;
}

char *glow_default_triple(void) {
  char *t = LLVMGetDefaultTargetTriple();
  char *n = LLVMNormalizeTargetTriple(t);
  char *r = glow_xstrdup(n);
  LLVMDisposeMessage(t);
  LLVMDisposeMessage(n);
  return r;
}

LLVMTargetMachineRef glow_target_machine(const glow_target_options *o, char **cpu_out, char **features_out) {
  init_llvm();
  char *err = NULL;
  LLVMTargetRef t;
  if (LLVMGetTargetFromTriple(o->triple, &t, &err)) {
    glow_error("-target", "unknown target triple '%s': %s", o->triple, err);
    LLVMDisposeMessage(err);
    return NULL;
  }
  char *cpu, *features;
  if (o->cpu && !strcmp(o->cpu, "native")) {
    char *c = LLVMGetHostCPUName(), *f = LLVMGetHostCPUFeatures();
    cpu = glow_xstrdup(c);
    features = glow_xstrdup(f);
    LLVMDisposeMessage(c);
    LLVMDisposeMessage(f);
    if (o->features && *o->features) {
      size_t n = strlen(features) + strlen(o->features) + 2;
      features = glow_xrealloc(features, n);
      strcat(strcat(features, ","), o->features);
    }
  } else {
    cpu = glow_xstrdup(o->cpu ? o->cpu : "");
    features = glow_xstrdup(o->features ? o->features : "");
  }
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, o->triple, cpu, features, LLVMCodeGenLevelAggressive,
                                                    o->pic ? LLVMRelocPIC : LLVMRelocStatic, LLVMCodeModelDefault);
  if (!tm) {
    glow_error("-target", "cannot create a target machine for '%s' (cpu '%s')", o->triple, cpu);
    free(cpu);
    free(features);
    return NULL;
  }
  *cpu_out = cpu;
  *features_out = features;
  return tm;
}
