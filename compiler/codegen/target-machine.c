/* LLVM target machines from -target/-mcpu/-mattr/-relocation-model. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* LLVM reports an unknown CPU or feature only as a warning on stderr (and may
 * fail hard later), so target machines are created with stderr captured and
 * those warnings become errors that list what the target has. */
static FILE *capture;
static int saved_fd = -1;

static void capture_begin(void) {
  fflush(stderr);
  capture = tmpfile();
  if (!capture)
    return;
  saved_fd = dup(2);
  dup2(fileno(capture), 2);
}

static char *capture_end(void) {
  if (!capture)
    return glow_xstrdup("");
  fflush(stderr);
  dup2(saved_fd, 2);
  close(saved_fd);
  long n = lseek(fileno(capture), 0, SEEK_END);
  char *text = glow_xmalloc((size_t)(n > 0 ? n : 0) + 1);
  lseek(fileno(capture), 0, SEEK_SET);
  ssize_t got = n > 0 ? read(fileno(capture), text, (size_t)n) : 0;
  text[got > 0 ? got : 0] = 0;
  fclose(capture);
  capture = NULL;
  return text;
}

/* The names LLVM lists under `heading` ("Available CPUs", "Available features") for -mcpu=help. */
static void print_available(LLVMTargetRef t, const char *triple, const char *heading) {
  capture_begin();
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, triple, "help", "", LLVMCodeGenLevelDefault, LLVMRelocPIC,
                                                    LLVMCodeModelDefault);
  char *text = capture_end();
  if (tm)
    LLVMDisposeTargetMachine(tm);
  char *sec = strstr(text, heading);
  fprintf(stderr, "  %s:", heading);
  int col = 2 + (int)strlen(heading) + 1;
  for (char *line = sec ? strchr(sec, '\n') : NULL; line && line[1]; line = strchr(line + 1, '\n')) {
    if (!strncmp(line + 1, "Available", 9) || !strncmp(line + 1, "Use +", 5))
      break;
    char name[128];
    if (line[1] != ' ' || line[2] != ' ' || sscanf(line + 3, "%127s", name) != 1)
      continue;
    if (col + (int)strlen(name) > 100) {
      fprintf(stderr, "\n   ");
      col = 3;
    }
    col += fprintf(stderr, " %s", name);
  }
  fprintf(stderr, "\n");
  free(text);
}

void glow_host_cpu(char **cpu, char **features) {
  char *c = LLVMGetHostCPUName(), *f = LLVMGetHostCPUFeatures();
  *cpu = glow_xstrdup(c);
  *features = glow_xstrdup(f);
  LLVMDisposeMessage(c);
  LLVMDisposeMessage(f);
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
    glow_host_cpu(&cpu, &features);
    if (o->features && *o->features) {
      size_t n = strlen(features) + strlen(o->features) + 2;
      features = glow_xrealloc(features, n);
      strcat(strcat(features, ","), o->features);
    }
  } else {
    cpu = glow_xstrdup(o->cpu ? o->cpu : "");
    features = glow_xstrdup(o->features ? o->features : "");
  }
  capture_begin();
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, o->triple, cpu, features, LLVMCodeGenLevelAggressive,
                                                    o->pic ? LLVMRelocPIC : LLVMRelocStatic, LLVMCodeModelDefault);
  char *warnings = capture_end();
  int bad_cpu = strstr(warnings, "not a recognized processor") != NULL;
  int bad_feature = strstr(warnings, "not a recognized feature") != NULL;
  free(warnings);
  if (tm && (bad_cpu || bad_feature)) {
    if (bad_cpu)
      glow_error("-mcpu", "unknown CPU '%s' for target %s; available:", cpu, o->triple);
    if (bad_feature)
      glow_error("-mattr", "unknown feature in '%s' for target %s; features are written +name or -name, from:",
                 features, o->triple);
    print_available(t, o->triple, bad_cpu ? "Available CPUs for this target" : "Available features for this target");
    LLVMDisposeTargetMachine(tm);
    tm = NULL;
  } else if (!tm) {
    glow_error("-target", "cannot create a target machine for '%s' (cpu '%s')", o->triple, cpu);
  }
  if (!tm) {
    free(cpu);
    free(features);
    return NULL;
  }
  *cpu_out = cpu;
  *features_out = features;
  return tm;
}
