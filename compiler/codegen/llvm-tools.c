/* -llvm-opt and -llvm-compiler: the bundle's bitcode through external LLVM tools, as Glow
 * runs them, in a private temporary folder that is removed afterwards. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#include "codegen/llvm-output.h"


/* "<dir>/<name><suffix>" */
static char *path_in(const char *dir, const char *name, const char *suffix) {
  size_t n = strlen(name) + strlen(suffix) + 1;
  char *file = glow_xmalloc(n);
  snprintf(file, n, "%s%s", name, suffix);
  char *p = glow_temp_path(dir, file);
  free(file);
  return p;
}

/* llc's command line for `type` ("obj" or "asm"): the target machine's flags (triple, CPU,
 * features, relocation and code model, ABI, -O3 and the one TargetOptions default llc does
 * not share: what the in-process compile uses), then the user's -llvm-compiler-opt (later
 * wins), then the files. */
static int run_llc(const glow_bundle_options *o, const glow_resolved_target *rt, const char *type, const char *in,
                   const char *out, const char *log) {
  static const char *const code_models[] = {NULL, "small", "medium", "large"};
  const glow_target_options *t = &o->target;
  int cap = 16 + o->nllvm_compiler_opts, n = 0;
  char **argv = glow_xcalloc((size_t)cap, sizeof *argv);
  glow_strbuf flags[6] = {{0}};
  glow_sb_printf(&flags[0], "-mtriple=%s", rt->triple);
  glow_sb_printf(&flags[1], "-mcpu=%s", rt->cpu);
  glow_sb_printf(&flags[2], "-mattr=%s", rt->features);
  glow_sb_printf(&flags[3], "-relocation-model=%s", glow_target_pic(t, rt->triple) ? "pic" : "static");
  glow_sb_printf(&flags[4], "-filetype=%s", type);
  argv[n++] = (char *)o->llvm_compiler;
  for (int i = 0; i < 5; i++)
    if ((i != 1 || *rt->cpu) && (i != 2 || *rt->features))
      argv[n++] = flags[i].s;
  if (code_models[t->code_model]) {
    glow_sb_printf(&flags[5], "-code-model=%s", code_models[t->code_model]);
    argv[n++] = flags[5].s;
  }
  char abi[128];
  if (t->abi && *t->abi) {
    snprintf(abi, sizeof abi, "-target-abi=%s", t->abi);
    argv[n++] = abi;
  }
  argv[n++] = "-O3";
  argv[n++] = "-enable-no-trapping-fp-math"; /* the target machine's default, not llc's (Arm's FP attributes) */
  for (int i = 0; i < o->nllvm_compiler_opts; i++)
    argv[n++] = (char *)o->llvm_compiler_opts[i];
  argv[n++] = (char *)in;
  argv[n++] = "-o";
  argv[n++] = (char *)out;
  int rc = glow_run_tool("-llvm-compiler", argv, log);
  for (int i = 0; i < 6; i++)
    glow_sb_free(&flags[i]);
  free(argv);
  return rc;
}

/* -llvm-opt without -llvm-compiler: opt's bitcode compiled in process, by tm. */
static int emit_bitcode_file(LLVMTargetMachineRef tm, LLVMContextRef ctx, const char *path, LLVMCodeGenFileType type,
                             const char *triple, void **out, size_t *size) {
  LLVMMemoryBufferRef mb;
  LLVMModuleRef m;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &msg)) {
    glow_error("-llvm-opt", "cannot read what it wrote: %s", msg);
    LLVMDisposeMessage(msg);
    return -1;
  }
  int bad = LLVMParseBitcodeInContext2(ctx, mb, &m);
  LLVMDisposeMemoryBuffer(mb);
  if (bad) {
    glow_error("-llvm-opt", "its output is not LLVM 19 bitcode (is it LLVM 19's opt?)");
    return -1;
  }
  int rc = glow_codegen_emit(tm, m, type, triple, out, size);
  LLVMDisposeModule(m);
  return rc;
}

/* A tool may exit 0 without writing its output. */
static int check_output(const char *option, const char *tool, const char *path) {
  if (!access(path, F_OK))
    return 0;
  glow_error(option, "'%s' exited with status 0 but wrote no %s", tool, strrchr(path, '/') + 1);
  return -1;
}

static int read_output(const char *option, const char *tool, const char *path, void **data, size_t *size) {
  uint8_t *d = NULL;
  if (check_output(option, tool, path) || glow_read_file(path, &d, size))
    return -1;
  *data = d;
  return 0;
}

int glow_llvm_tools(LLVMTargetMachineRef tm, LLVMModuleRef m, const glow_bundle_options *o,
                    const glow_resolved_target *rt, void **obj, size_t *obj_size, int want_asm, char **asm_text,
                    size_t *asm_size) {
  *obj = NULL;
  *asm_text = NULL;
  char *dir = glow_temp_dir(o->llvm_compiler ? "-llvm-compiler" : "-llvm-opt", "the bitcode");
  if (!dir)
    return -1;
  const char *net = o->network_name;
  char *bc = path_in(dir, net, ".bc"), *opt_bc = path_in(dir, net, ".opt.bc"), *o_file = path_in(dir, net, ".o");
  char *s_file = path_in(dir, net, ".s"), *log = path_in(dir, "tool", ".log");
  const char *input = bc;
  void *text = NULL;
  int rc = -1;
  if (LLVMWriteBitcodeToFile(m, bc)) {
    glow_error(o->llvm_compiler ? "-llvm-compiler" : "-llvm-opt", "cannot write the bitcode into %s", dir);
    goto done;
  }
  if (o->llvm_opt) { /* Glow runs opt with -O3 alone; -llvm-compiler-opt is for the compiler */
    char *argv[] = {(char *)o->llvm_opt, "-O3", bc, "-o", opt_bc, NULL};
    if (glow_run_tool("-llvm-opt", argv, log) || check_output("-llvm-opt", argv[0], opt_bc))
      goto done;
    input = opt_bc;
  }
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  if (!o->llvm_compiler) {
    rc = emit_bitcode_file(tm, ctx, input, LLVMObjectFile, rt->triple, obj, obj_size);
    if (!rc && want_asm)
      rc = emit_bitcode_file(tm, ctx, input, LLVMAssemblyFile, rt->triple, &text, asm_size);
    goto done;
  }
  const char *llc = o->llvm_compiler;
  if (run_llc(o, rt, "obj", input, o_file, log) || read_output("-llvm-compiler", llc, o_file, obj, obj_size))
    goto done;
  if (want_asm && (run_llc(o, rt, "asm", input, s_file, log) ||
                   read_output("-llvm-compiler", llc, s_file, &text, asm_size)))
    goto done;
  rc = 0;
done:
  if (rc) {
    free(*obj);
    *obj = NULL;
    free(text);
    text = NULL;
  }
  *asm_text = text;
  glow_temp_dir_remove(dir);
  free(bc);
  free(opt_bc);
  free(o_file);
  free(s_file);
  free(log);
  return rc;
}
