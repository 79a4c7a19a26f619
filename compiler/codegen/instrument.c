/* -instrument-ir and -instrument-debug: what the entry does around each step, in
 * Glow's order: the inputs written (-instrument-debug), glow_instrument_before,
 * the step, glow_instrument_after, the outputs written. The callbacks are the
 * program's (plain external symbols, as Glow's bundles have them: a program
 * that lacks them does not link); their operand arrays live on the entry's
 * stack, where Glow puts them in the activations, so the memory sizes stay
 * those of the plain bundle. Debug files are numbered across the selected
 * steps, each step's outputs first, then its inputs (instrument-debug.info). */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen/codegen-internal.h"

struct glow_instr {
  LLVMModuleRef m;
  LLVMContextRef ctx;
  const glow_graph *g;
  const glow_plan *p;
  const glow_bundle_options *o;
  LLVMTypeRef ptr, i32, cb_type;
  int most;                   /* the most operands of a step, at least 1 */
  LLVMValueRef addr, size;    /* the entry's operand arrays (-instrument-ir) */
  int file;                   /* the next dataNNNN (-instrument-debug) */
  glow_operands ops;          /* of the step between before and after */
  int kind, dumped;
};

glow_instr *glow_instr_create(LLVMModuleRef m, const glow_graph *g, const glow_plan *p,
                              const glow_bundle_options *o) {
  if (!o->instrument_ir && !o->instrument_debug)
    return NULL;
  glow_instr *in = glow_xcalloc(1, sizeof *in);
  in->m = m;
  in->ctx = LLVMGetModuleContext(m);
  in->g = g;
  in->p = p;
  in->o = o;
  in->ptr = LLVMPointerTypeInContext(in->ctx, 0);
  in->i32 = LLVMInt32TypeInContext(in->ctx);
  LLVMTypeRef args[6] = {in->i32, in->i32, in->i32, in->i32, in->ptr, in->ptr};
  in->cb_type = LLVMFunctionType(LLVMVoidTypeInContext(in->ctx), args, 6, 0);
  in->most = 1;
  for (int s = 0; s < p->norder; s++) {
    const glow_node *n = &g->nodes[p->order[s]];
    in->most = n->nin + n->nout > in->most ? n->nin + n->nout : in->most;
  }
  return in;
}

void glow_instr_entry(glow_instr *in, LLVMBuilderRef b) {
  if (!in || !in->o->instrument_ir)
    return;
  in->addr = LLVMBuildAlloca(b, LLVMArrayType2(in->ptr, (uint64_t)in->most), "op_addr");
  in->size = LLVMBuildAlloca(b, LLVMArrayType2(in->i32, (uint64_t)in->most), "op_size");
}

static LLVMValueRef i32c(glow_instr *in, long long v) { return LLVMConstInt(in->i32, (unsigned long long)v, 1); }

static LLVMValueRef address(glow_instr *in, LLVMBuilderRef b, LLVMValueRef const *area, int id) {
  LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(in->ctx), in->p->offset[id], 0);
  return LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(in->ctx), area[in->p->area[id]], &off, 1, "");
}

static void callback(glow_instr *in, LLVMBuilderRef b, const char *name, int step) {
  LLVMValueRef fn = LLVMGetNamedFunction(in->m, name);
  if (!fn)
    fn = LLVMAddFunction(in->m, name, in->cb_type);
  LLVMValueRef args[6] = {i32c(in, step), i32c(in, in->kind), i32c(in, in->ops.nin), i32c(in, in->ops.nout), in->addr,
                          in->size};
  LLVMBuildCall2(b, in->cb_type, fn, args, 6, "");
}

/* Operand k written as data<file>.<ext> (or to the console) under Glow's DebugPrint name. */
static void dump(glow_instr *in, LLVMBuilderRef b, LLVMValueRef const *area, const glow_node *n, int k, int file,
                 const char *when) {
  const char *format = glow_instrument_debug_format(in->o);
  const char *dir = in->o->instrument_debug_dir ? in->o->instrument_debug_dir : "debug";
  char opname[32];
  glow_operand_name(opname, sizeof opname, &in->ops, k);
  int kind;
  const char *kname = glow_glow_kind(in->g, n, &kind);
  glow_strbuf path = {0}, name = {0};
  glow_sb_printf(&path, "%s/data%04d.%s", dir, file, strstr(format, "bin") ? "bin" : "txt");
  glow_sb_printf(&name, "debug_print.%s.%s.%s.%s", when, n->name && *n->name ? n->name : glow_op_get(n->op)->onnx_name,
                 opname, kname);
  int id = in->ops.id[k];
  glow_dump_tensor_call(in->m, b, format, address(in, b, area, id), &in->g->vals[id], path.s, name.s);
  glow_sb_free(&path);
  glow_sb_free(&name);
}

void glow_instr_before(glow_instr *in, LLVMBuilderRef b, LLVMValueRef const *area, int step, const glow_node *n) {
  if (!in)
    return;
  glow_operands_of(in->g, in->p, n, &in->ops);
  glow_glow_kind(in->g, n, &in->kind);
  in->dumped = in->o->instrument_debug && glow_instrument_debug_selected(in->o, in->g, n);
  for (int k = 0; in->dumped && k < in->ops.nin; k++)
    dump(in, b, area, n, k, in->file + in->ops.nout + k, "before");
  if (!in->o->instrument_ir)
    return;
  LLVMTypeRef at = LLVMArrayType2(in->ptr, (uint64_t)in->most), st = LLVMArrayType2(in->i32, (uint64_t)in->most);
  for (int k = 0; k < in->ops.nin + in->ops.nout; k++) {
    LLVMValueRef idx[2] = {i32c(in, 0), i32c(in, k)};
    int id = in->ops.id[k];
    LLVMBuildStore(b, address(in, b, area, id), LLVMBuildInBoundsGEP2(b, at, in->addr, idx, 2, ""));
    LLVMBuildStore(b, i32c(in, (long long)glow_value_bytes(&in->g->vals[id])),
                   LLVMBuildInBoundsGEP2(b, st, in->size, idx, 2, ""));
  }
  callback(in, b, "glow_instrument_before", step);
}

void glow_instr_after(glow_instr *in, LLVMBuilderRef b, LLVMValueRef const *area, int step, const glow_node *n) {
  if (!in)
    return;
  if (in->o->instrument_ir)
    callback(in, b, "glow_instrument_after", step);
  for (int j = 0; in->dumped && j < in->ops.nout; j++)
    dump(in, b, area, n, in->ops.nin + j, in->file + j, "after");
  if (in->dumped)
    in->file += in->ops.nin + in->ops.nout;
  glow_operands_free(&in->ops);
}

void glow_instr_free(glow_instr *in) { free(in); }
