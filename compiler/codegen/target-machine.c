/* LLVM target machines from -target/-mcpu/-mattr/-mabi/-float-abi/-relocation-model/-bundle-code-model. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "codegen/codegen-internal.h"
#include "codegen/llvm-output.h"
#include "arm-probes.h"

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

/* arch-vendor-os[-env] with the vendor left out: "x86_64-unknown-linux-gnu" and
 * the host's "x86_64-pc-linux-gnu" name the same machines. */
static char *without_vendor(const char *triple) {
  char *n = LLVMNormalizeTargetTriple(triple);
  const char *d1 = strchr(n, '-'), *d2 = d1 ? strchr(d1 + 1, '-') : NULL;
  size_t len = strlen(n) + 1;
  char *r = glow_xmalloc(len);
  if (d2)
    snprintf(r, len, "%.*s%s", (int)(d1 - n), n, d2);
  else
    snprintf(r, len, "%s", n);
  LLVMDisposeMessage(n);
  return r;
}

int glow_triple_is_host(const char *triple) {
  char *host = glow_default_triple(), *a = without_vendor(host), *b = without_vendor(triple);
  int same = !strcmp(a, b);
  free(host);
  free(a);
  free(b);
  return same;
}

void glow_host_cpu(char **cpu, char **features) {
  char *c = LLVMGetHostCPUName(), *f = LLVMGetHostCPUFeatures();
  *cpu = glow_xstrdup(c);
  *features = glow_xstrdup(f);
  LLVMDisposeMessage(c);
  LLVMDisposeMessage(f);
}

/* The triple and features for -float-abi on 32-bit Arm: the calling convention
 * follows the triple's environment (eabihf, gnueabihf, musleabihf: floats in FPU
 * registers; eabi, gnueabi, musleabi: in core registers), and soft also keeps the
 * FPU unused. Without -float-abi the triple decides; one without an environment
 * gets eabihf. */
static int arm_float_abi(const char *triple, const char *abi, char **triple_out, glow_strbuf *features) {
  const char *dash = strrchr(triple, '-');
  const char *env = dash ? dash + 1 : "";
  size_t elen = strlen(env);
  int hf = elen >= 6 && !strcmp(env + elen - 6, "eabihf"), sf = !hf && elen >= 4 && !strcmp(env + elen - 4, "eabi");
  /* The environment's prefix (gnu, musl) stays. */
  size_t base = hf || sf ? (size_t)(dash - triple) : strlen(triple), prefix = hf ? elen - 6 : sf ? elen - 4 : 0;
  if (abi && strcmp(abi, "hard") && strcmp(abi, "softfp") && strcmp(abi, "soft")) {
    glow_error("-float-abi", "'%s' is not soft, softfp or hard", abi);
    return -1;
  }
  const char *want = !abi ? (hf || !sf ? "eabihf" : "eabi") : !strcmp(abi, "hard") ? "eabihf" : "eabi";
  if (abi && !strcmp(abi, "soft")) /* -fpregs too: else the object's attributes still claim the FPU */
    glow_sb_printf(features, "%s+soft-float,-fpregs", features->len ? "," : "");
  size_t n = base + prefix + strlen(want) + 2;
  *triple_out = glow_xmalloc(n);
  snprintf(*triple_out, n, "%.*s-%.*s%s", (int)base, triple, (int)prefix, env, want);
  return 0;
}

/* The -mcpu fits the target's triples (tgt->cpus), else an error naming the triple that fits it. */
static int cpu_fits(const glow_target *tgt, const char *cpu, const char *triple) {
  if (!tgt->cpus)
    return 1;
  for (const char *const *c = tgt->cpus; *c; c++)
    if (!strcmp(*c, cpu))
      return 1;
  const glow_target *other = NULL;
  for (int i = 0; !other && i < glow_ntargets; i++)
    for (const char *const *c = glow_targets[i]->cpus; c && *c && !other; c++)
      if (!strcmp(*c, cpu) && glow_targets[i]->glow_triple)
        other = glow_targets[i];
  glow_strbuf fit = {0};
  for (const char *const *c = tgt->cpus; *c; c++)
    glow_sb_printf(&fit, "%s%s", fit.len ? ", " : "", *c);
  if (other)
    glow_error("-mcpu", "'%s' does not fit the target %s (glowc's %s kernels, for %s): for the %s use "
               "-target=%s, or keep the target and pick one of its CPUs", cpu, triple, tgt->name, fit.s, cpu,
               other->glow_triple);
  else
    glow_error("-mcpu", "'%s' does not fit the target %s (glowc's %s kernels are for %s): pick one of those", cpu,
               triple, tgt->name, fit.s);
  glow_sb_free(&fit);
  return 0;
}

/* A hard-float ABI (eabihf) passes floats in FPU registers: the CPU must have an FPU. given: the
 * triple as the user wrote it; hard: -float-abi=hard asked for it (else the triple did). */
static int arm_fpu_fits(LLVMTargetMachineRef tm, const char *triple, const char *cpu, const char *given, int hard) {
  size_t n = strlen(triple), g = strlen(given);
  if (n < 6 || strcmp(triple + n - 6, "eabihf"))
    return 1;
  glow_target_probe fpu = {"fpu", glow_arm_probe_fpu, "vadd.f32"};
  if (glow_target_probe_run(tm, triple, &fpu))
    return 1;
  if (hard)
    glow_error("-float-abi", "hard passes floats in FPU registers, but the %s has no FPU: drop -float-abi=hard (or "
               "use -float-abi=none); floats are then computed by the C library's software routines", cpu);
  else if (g > 2 && !strcmp(given + g - 2, "hf"))
    glow_error("-target", "%s passes floats in FPU registers (hard float), but the %s has no FPU: use "
               "-target=%.*s (soft float); floats are then computed by the C library's software routines", given,
               cpu, (int)(g - 2), given);
  else
    glow_error("-target", "%s gets the hard-float ABI, but the %s has no FPU: write the triple with eabi (soft "
               "float) as its last part", given, cpu);
  return 0;
}

/* LLVM warns of an -mabi it does not know (and goes on without it) only once code is made:
 * an empty function is compiled, its warnings captured, and they become an error. */
static int bad_abi(LLVMTargetMachineRef tm, const char *triple, const char *abi) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext("abi", ctx);
  LLVMSetTarget(m, triple);
  LLVMValueRef f = LLVMAddFunction(m, "f", LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, ""));
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  char *msg = NULL;
  LLVMMemoryBufferRef out = NULL;
  capture_begin();
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &msg, &out))
    LLVMDisposeMessage(msg);
  char *warnings = capture_end();
  if (out)
    LLVMDisposeMemoryBuffer(out);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  char *w = strstr(warnings, "(ignoring target-abi)"), *line = w;
  while (line && line > warnings && line[-1] != '\n')
    line--;
  if (w) {
    while (w > line && w[-1] == ' ')
      w--;
    *w = 0;
    glow_error("-mabi", "'%s' is not an ABI of %s: LLVM says \"%s\"", abi, triple, line);
  }
  free(warnings);
  return w != NULL;
}

void glow_target_module_abi(LLVMModuleRef m, const char *abi) {
  if (!abi || !*abi)
    return;
  unsigned n = LLVMGetNamedMetadataNumOperands(m, "llvm.module.flags");
  LLVMValueRef *flags = glow_xcalloc(n ? n : 1, sizeof *flags);
  LLVMGetNamedMetadataOperands(m, "llvm.module.flags", flags);
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  for (unsigned i = 0; i < n; i++) { /* !{i32 behavior, !"key", value} */
    LLVMValueRef op[3];
    unsigned len;
    if (LLVMGetMDNodeNumOperands(flags[i]) != 3)
      continue;
    LLVMGetMDNodeOperands(flags[i], op);
    const char *key = LLVMGetMDString(op[1], &len);
    if (key && len == 10 && !memcmp(key, "target-abi", 10))
      LLVMReplaceMDNodeOperandWith(flags[i], 2, LLVMMDStringInContext2(ctx, abi, strlen(abi)));
  }
  free(flags);
}

int glow_target_pic(const glow_target_options *o, const char *triple) {
  return o->pic >= 0 ? o->pic : !strstr(triple, "-none"); /* bare metal: no GOT, no dynamic loader */
}

/* The CPU -mcpu names for the target (free() it): the host's for native (its features in
 * *host_features, else NULL), the target's default for none or baseline. */
static char *resolve_cpu(const glow_target_options *o, const glow_target *tgt, char **host_features) {
  char *cpu;
  *host_features = NULL;
  if (o->cpu && !strcmp(o->cpu, "native"))
    glow_host_cpu(&cpu, host_features);
  else
    cpu = glow_xstrdup(!o->cpu || !*o->cpu || !strcmp(o->cpu, "baseline") ? tgt->default_cpu : o->cpu);
  return cpu;
}

LLVMTargetMachineRef glow_target_machine(const glow_target_options *o, const glow_target *tgt,
                                         glow_resolved_target *r) {
  init_llvm();
  memset(r, 0, sizeof *r);
  glow_strbuf features = {0};
  glow_sb_printf(&features, "%s", "");
  int native = o->cpu && !strcmp(o->cpu, "native");
  int baseline = !o->cpu || !*o->cpu || !strcmp(o->cpu, "baseline");
  char *host_features, *cpu = resolve_cpu(o, tgt, &host_features);
  glow_sb_printf(&features, "%s", native ? host_features : tgt->default_features);
  free(host_features);
  if (o->features && *o->features)
    glow_sb_printf(&features, "%s%s", features.len ? "," : "", o->features);
  if (!native && !baseline && !cpu_fits(tgt, cpu, o->triple)) {
    free(cpu);
    glow_sb_free(&features);
    return NULL;
  }
  /* Normalized, as clang does: "thumbv7em-none-eabihf" read as is has no environment (so no hard float). */
  char *norm = LLVMNormalizeTargetTriple(o->triple), *triple = NULL;
  if (tgt->arm_float_abi) {
    int bad = arm_float_abi(norm, o->float_abi, &triple, &features);
    LLVMDisposeMessage(norm);
    if (bad)
      goto fail;
  } else if (o->float_abi) {
    LLVMDisposeMessage(norm);
    glow_error("-float-abi", "applies to 32-bit Arm targets (thumbv7em-none-eabihf) only; on %s the ABI follows the "
               "triple", o->triple);
    goto fail;
  } else {
    triple = glow_xstrdup(norm);
    LLVMDisposeMessage(norm);
  }
  char *err = NULL;
  LLVMTargetRef t;
  if (LLVMGetTargetFromTriple(triple, &t, &err)) {
    glow_error("-target", "unknown target triple '%s': %s", triple, err);
    LLVMDisposeMessage(err);
    goto fail;
  }
  int pic = glow_target_pic(o, triple);
  static const LLVMCodeModel code_models[] = {LLVMCodeModelDefault, LLVMCodeModelSmall, LLVMCodeModelMedium,
                                              LLVMCodeModelLarge};
  LLVMTargetMachineOptionsRef opts = LLVMCreateTargetMachineOptions();
  LLVMTargetMachineOptionsSetCPU(opts, cpu);
  LLVMTargetMachineOptionsSetFeatures(opts, features.s);
  if (o->abi && *o->abi)
    LLVMTargetMachineOptionsSetABI(opts, o->abi);
  LLVMTargetMachineOptionsSetCodeGenOptLevel(opts, LLVMCodeGenLevelAggressive);
  LLVMTargetMachineOptionsSetRelocMode(opts, pic ? LLVMRelocPIC : LLVMRelocStatic);
  LLVMTargetMachineOptionsSetCodeModel(opts, code_models[o->code_model]); /* 0-3, options.def's enum */
  capture_begin();
  LLVMTargetMachineRef tm = LLVMCreateTargetMachineWithOptions(t, triple, opts);
  char *warnings = capture_end();
  LLVMDisposeTargetMachineOptions(opts);
  int bad_cpu = strstr(warnings, "not a recognized processor") != NULL;
  int bad_feature = strstr(warnings, "not a recognized feature") != NULL;
  free(warnings);
  if (tm && (bad_cpu || bad_feature)) {
    if (bad_cpu)
      glow_error("-mcpu", "unknown CPU '%s' for target %s (e.g. %s); available:", cpu, o->triple, tgt->cpu_examples);
    if (bad_feature)
      glow_error("-mattr", "unknown feature in '%s' for target %s; features are written +name or -name, from:",
                 features.s, o->triple);
    print_available(t, triple, bad_cpu ? "Available CPUs for this target" : "Available features for this target");
    LLVMDisposeTargetMachine(tm);
    tm = NULL;
  } else if (!tm) {
    glow_error("-target", "cannot create a target machine for '%s' (cpu '%s')", triple, cpu);
  }
  if (tm && tgt->arm_float_abi && !arm_fpu_fits(tm, triple, cpu, o->triple, o->float_abi && !strcmp(o->float_abi, "hard"))) {
    LLVMDisposeTargetMachine(tm);
    tm = NULL;
  }
  if (tm && o->abi && *o->abi && bad_abi(tm, triple, o->abi)) {
    LLVMDisposeTargetMachine(tm);
    tm = NULL;
  }
  if (!tm)
    goto fail;
  r->triple = triple;
  r->cpu = cpu;
  r->features = features.s;
  return tm;
fail:
  free(triple);
  free(cpu);
  glow_sb_free(&features);
  return NULL;
}

int glow_target_probe_run(LLVMTargetMachineRef tm, const char *triple, const glow_target_probe *pr) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef ir = LLVMCreateMemoryBufferWithMemoryRangeCopy(pr->ir, strlen(pr->ir), pr->name);
  LLVMModuleRef m;
  char *msg = NULL;
  if (LLVMParseIRInContext(ctx, ir, &m, &msg)) { /* takes the buffer */
    fprintf(stderr, "glowc: internal error: target probe %s: %s\n", pr->name, msg);
    abort();
  }
  LLVMSetTarget(m, triple);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(m, td);
  LLVMDisposeTargetData(td);
  LLVMMemoryBufferRef out;
  int found = 0;
  if (!LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMAssemblyFile, &msg, &out)) {
    size_t n = LLVMGetBufferSize(out), k = strlen(pr->mnemonic);
    const char *a = LLVMGetBufferStart(out);
    for (size_t i = 0; !found && i + k <= n; i++)
      found = !memcmp(a + i, pr->mnemonic, k);
    LLVMDisposeMemoryBuffer(out);
  } else {
    LLVMDisposeMessage(msg);
  }
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return found;
}

int glow_target_winograd(const glow_target_options *o) {
  const glow_target *tgt = glow_target_for_triple(o->triple);
  if (!tgt || !tgt->conv_winograd)
    return 0;
  if (!tgt->fma512_cpus)
    return GLOW_WINOGRAD_MIN_OUTPUTS;
  char *features, *cpu = resolve_cpu(o, tgt, &features);
  size_t n = strlen(cpu);
  int wide = 0;
  for (const char *s = tgt->fma512_cpus; *s; s += strspn(s, " ")) { /* the list's names, one by one */
    size_t k = strcspn(s, " ");
    wide |= k == n && !strncmp(s, cpu, n);
    s += k;
  }
  free(cpu);
  free(features);
  return wide ? GLOW_WINOGRAD_MIN_OUTPUTS_FMA512 : GLOW_WINOGRAD_MIN_OUTPUTS;
}

int glow_target_conv_tile_blocks(const glow_target_options *o) {
  const glow_target *tgt = glow_target_for_triple(o->triple);
  if (!tgt || tgt->conv_tile_blocks <= 1)
    return 1;
  if (!tgt->conv_tile_probe)
    return tgt->conv_tile_blocks;
  glow_resolved_target rt;
  LLVMTargetMachineRef tm = glow_target_machine(o, tgt, &rt);
  if (!tm)
    return -1;
  int v = glow_target_probe_run(tm, rt.triple, tgt->conv_tile_probe);
  LLVMDisposeTargetMachine(tm);
  free(rt.triple);
  free(rt.cpu);
  free(rt.features);
  return v ? tgt->conv_tile_blocks : 1;
}

int glow_codegen_emit(LLVMTargetMachineRef tm, LLVMModuleRef m, LLVMCodeGenFileType type, const char *triple,
                      void **out, size_t *size) {
  char *msg = NULL;
  LLVMMemoryBufferRef buf;
  *out = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, type, &msg, &buf)) {
    glow_error(NULL, "LLVM code generation failed for %s: %s", triple, msg);
    LLVMDisposeMessage(msg);
    return -1;
  }
  *size = LLVMGetBufferSize(buf);
  *out = glow_xmalloc(*size ? *size : 1);
  memcpy(*out, LLVMGetBufferStart(buf), *size);
  LLVMDisposeMemoryBuffer(buf);
  return 0;
}
