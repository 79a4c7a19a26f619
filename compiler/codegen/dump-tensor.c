/* -instrument-debug: the bundle's own tensor writers, as LLVM IR calling the C
 * library (fopen, fwrite, fprintf, printf), so that a program links the bundle
 * object alone, as it links a Glow bundle (whose libjit has these writers).
 * Formats as Glow's DebugPrint writes them: bin (the type, then the bytes),
 * rawbin (the bytes), txt and rawtxt ("%f, " per element, after the type and
 * a newline for txt) and console (name, shape, max and min, the first 100
 * elements in brackets by dimension). Each writer is an internal function, made
 * once per module; the calls give it the tensor's address, size and strings. */
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen/codegen-internal.h"

#define CONSOLE_MAX 100 /* elements printed to the console, as Glow */

typedef struct {
  LLVMModuleRef m;
  LLVMContextRef ctx;
  LLVMBuilderRef b;
  LLVMTypeRef ptr, i32, size, dbl;
} ir;

static LLVMValueRef libc(ir *c, const char *name, LLVMTypeRef ret, LLVMTypeRef *args, unsigned n, int variadic) {
  LLVMValueRef f = LLVMGetNamedFunction(c->m, name);
  return f ? f : LLVMAddFunction(c->m, name, LLVMFunctionType(ret, args, n, variadic));
}

static LLVMValueRef call(ir *c, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n, unsigned fixed) {
  LLVMTypeRef types[4] = {c->ptr, c->ptr, c->ptr, c->ptr};
  if (!strcmp(name, "fwrite"))
    types[1] = types[2] = c->size;
  LLVMValueRef f = libc(c, name, ret, types, fixed, fixed < n);
  return LLVMBuildCall2(c->b, LLVMGlobalGetValueType(f), f, args, n, "");
}

static LLVMValueRef str(ir *c, const char *s) { return LLVMBuildGlobalStringPtr(c->b, s, ""); }

static LLVMValueRef print(ir *c, LLVMValueRef *args, unsigned n) { return call(c, "printf", c->i32, args, n, 1); }

/* The element type a tensor of dt is read as, NULL if none (strings). */
static LLVMTypeRef elem_type(ir *c, glow_dtype dt) {
  switch (dt) {
  case GLOW_DT_F32: return LLVMFloatTypeInContext(c->ctx);
  case GLOW_DT_F64: return c->dbl;
  case GLOW_DT_F16: return LLVMHalfTypeInContext(c->ctx);
  case GLOW_DT_BF16: return LLVMBFloatTypeInContext(c->ctx);
  case GLOW_DT_I8: case GLOW_DT_U8: case GLOW_DT_BOOL: return LLVMInt8TypeInContext(c->ctx);
  case GLOW_DT_I16: case GLOW_DT_U16: return LLVMInt16TypeInContext(c->ctx);
  case GLOW_DT_I32: case GLOW_DT_U32: return c->i32;
  case GLOW_DT_I64: case GLOW_DT_U64: return LLVMInt64TypeInContext(c->ctx);
  default: return NULL;
  }
}

/* Element i of data as a double. */
static LLVMValueRef load_double(ir *c, glow_dtype dt, LLVMValueRef data, LLVMValueRef i) {
  LLVMTypeRef t = elem_type(c, dt);
  LLVMValueRef v = LLVMBuildLoad2(c->b, t, LLVMBuildInBoundsGEP2(c->b, t, data, &i, 1, ""), "");
  if (glow_dtype_is_float(dt))
    return dt == GLOW_DT_F64 ? v : LLVMBuildFPExt(c->b, v, c->dbl, "");
  return glow_dtype_is_signed_int(dt) ? LLVMBuildSIToFP(c->b, v, c->dbl, "") : LLVMBuildUIToFP(c->b, v, c->dbl, "");
}

/* A counted loop: `i` (a size_t slot) from 0 while below `end`; the body goes between begin and end. */
typedef struct {
  LLVMValueRef i;
  LLVMBasicBlockRef head, exit;
} loop;

static LLVMValueRef zero(ir *c) { return LLVMConstInt(c->size, 0, 0); }

/* A local of type t, allocated at the start of the function (once, not per iteration). */
static LLVMValueRef local(ir *c, LLVMTypeRef t, LLVMValueRef init) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInsertBlock(c->b)));
  LLVMBuilderRef top = LLVMCreateBuilderInContext(c->ctx);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(top, first);
  else
    LLVMPositionBuilderAtEnd(top, entry);
  LLVMValueRef v = LLVMBuildAlloca(top, t, "");
  LLVMDisposeBuilder(top);
  LLVMBuildStore(c->b, init, v);
  return v;
}

static void loop_begin(ir *c, loop *l, LLVMValueRef fn, LLVMValueRef end) {
  l->i = local(c, c->size, zero(c));
  l->head = LLVMAppendBasicBlockInContext(c->ctx, fn, "head");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->ctx, fn, "body");
  l->exit = LLVMAppendBasicBlockInContext(c->ctx, fn, "exit");
  LLVMBuildBr(c->b, l->head);
  LLVMPositionBuilderAtEnd(c->b, l->head);
  LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntULT, LLVMBuildLoad2(c->b, c->size, l->i, ""), end, ""), body,
                  l->exit);
  LLVMPositionBuilderAtEnd(c->b, body);
}

static LLVMValueRef loop_index(ir *c, loop *l) { return LLVMBuildLoad2(c->b, c->size, l->i, "i"); }

static void loop_end(ir *c, loop *l) {
  LLVMBuildStore(c->b, LLVMBuildAdd(c->b, loop_index(c, l), LLVMConstInt(c->size, 1, 0), ""), l->i);
  LLVMBuildBr(c->b, l->head);
  LLVMPositionBuilderAtEnd(c->b, l->exit);
}

/* A new internal writer `name` of `args`, the builder at its start. */
static LLVMValueRef writer(ir *c, const char *name, LLVMTypeRef *args, unsigned n) {
  LLVMValueRef fn = LLVMAddFunction(c->m, name, LLVMFunctionType(LLVMVoidTypeInContext(c->ctx), args, n, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  const char *attrs[2] = {"noinline", "nounwind"};
  for (int k = 0; k < 2; k++)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(c->ctx, LLVMGetEnumAttributeKindForName(attrs[k], strlen(attrs[k])), 0));
  LLVMPositionBuilderAtEnd(c->b, LLVMAppendBasicBlockInContext(c->ctx, fn, "entry"));
  return fn;
}

/* fh = fopen(path, mode), or the message Glow prints and a return. */
static LLVMValueRef open_or_return(ir *c, LLVMValueRef fn, LLVMValueRef path, const char *mode) {
  LLVMValueRef args[2] = {path, str(c, mode)};
  LLVMValueRef fh = call(c, "fopen", c->ptr, args, 2, 2);
  LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(c->ctx, fn, "fail"),
                    ok = LLVMAppendBasicBlockInContext(c->ctx, fn, "ok");
  LLVMBuildCondBr(c->b, LLVMBuildIsNull(c->b, fh, ""), fail, ok);
  LLVMPositionBuilderAtEnd(c->b, fail);
  LLVMValueRef msg[2] = {str(c, "ERROR opening file: '%s'!\nFile name might be too long!\n"), path};
  print(c, msg, 2);
  LLVMBuildRetVoid(c->b);
  LLVMPositionBuilderAtEnd(c->b, ok);
  return fh;
}

/* glow.dump.bin(data, bytes, path, header): the header's text, then the bytes. */
static LLVMValueRef bin_writer(ir *c) {
  LLVMValueRef fn = LLVMGetNamedFunction(c->m, "glow.dump.bin");
  if (fn)
    return fn;
  LLVMTypeRef args[4] = {c->ptr, c->size, c->ptr, c->ptr};
  fn = writer(c, "glow.dump.bin", args, 4);
  LLVMValueRef fh = open_or_return(c, fn, LLVMGetParam(fn, 2), "wb");
  LLVMValueRef put[2] = {LLVMGetParam(fn, 3), fh};
  call(c, "fputs", c->i32, put, 2, 2);
  LLVMValueRef w[4] = {LLVMGetParam(fn, 0), LLVMConstInt(c->size, 1, 0), LLVMGetParam(fn, 1), fh};
  call(c, "fwrite", c->size, w, 4, 4);
  call(c, "fclose", c->i32, &fh, 1, 1);
  LLVMBuildRetVoid(c->b);
  return fn;
}

/* glow.dump.txt.<dt>(data, count, path, header): the header and a newline when
 * there is a header, then "%f, " per element. */
static LLVMValueRef txt_writer(ir *c, glow_dtype dt) {
  char name[40];
  snprintf(name, sizeof name, "glow.dump.txt.%s", glow_dtype_suffix(dt));
  LLVMValueRef fn = LLVMGetNamedFunction(c->m, name);
  if (fn)
    return fn;
  LLVMTypeRef args[4] = {c->ptr, c->size, c->ptr, c->ptr};
  fn = writer(c, name, args, 4);
  LLVMValueRef fh = open_or_return(c, fn, LLVMGetParam(fn, 2), "w");
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c->ctx, fn, "header"),
                    data = LLVMAppendBasicBlockInContext(c->ctx, fn, "data");
  LLVMValueRef first = LLVMBuildLoad2(c->b, LLVMInt8TypeInContext(c->ctx), LLVMGetParam(fn, 3), "");
  LLVMBuildCondBr(c->b, LLVMBuildIsNull(c->b, first, ""), data, head);
  LLVMPositionBuilderAtEnd(c->b, head);
  LLVMValueRef hdr[3] = {fh, str(c, "%s\n"), LLVMGetParam(fn, 3)};
  call(c, "fprintf", c->i32, hdr, 3, 2);
  LLVMBuildBr(c->b, data);
  LLVMPositionBuilderAtEnd(c->b, data);
  loop l;
  loop_begin(c, &l, fn, LLVMGetParam(fn, 1));
  LLVMValueRef el[3] = {fh, str(c, "%f, "), load_double(c, dt, LLVMGetParam(fn, 0), loop_index(c, &l))};
  call(c, "fprintf", c->i32, el, 3, 2);
  loop_end(c, &l);
  call(c, "fclose", c->i32, &fh, 1, 1);
  LLVMBuildRetVoid(c->b);
  return fn;
}

/* glow.dump.console.<dt>(data, count, name, shape line, slices, nslices): slices[j]
 * is the element count of one index of dimension j (j < rank - 1); an element opens
 * a bracket for each slice it starts and closes one (and a line) for each it ends. */
static LLVMValueRef console_writer(ir *c, glow_dtype dt) {
  char name[40];
  snprintf(name, sizeof name, "glow.dump.console.%s", glow_dtype_suffix(dt));
  LLVMValueRef fn = LLVMGetNamedFunction(c->m, name);
  if (fn)
    return fn;
  LLVMTypeRef args[6] = {c->ptr, c->size, c->ptr, c->ptr, c->ptr, c->size};
  fn = writer(c, name, args, 6);
  LLVMValueRef data = LLVMGetParam(fn, 0), n = LLVMGetParam(fn, 1);
  LLVMValueRef hdr[3] = {str(c, "%s\n%s"), LLVMGetParam(fn, 2), LLVMGetParam(fn, 3)};
  print(c, hdr, 3);
  LLVMValueRef v0 = load_double(c, dt, data, zero(c)), mx = local(c, c->dbl, v0), mn = local(c, c->dbl, v0);
  loop l;
  loop_begin(c, &l, fn, n);
  LLVMValueRef v = load_double(c, dt, data, loop_index(c, &l));
  LLVMValueRef cur = LLVMBuildLoad2(c->b, c->dbl, mx, "");
  LLVMBuildStore(c->b, LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOGT, v, cur, ""), v, cur, ""), mx);
  cur = LLVMBuildLoad2(c->b, c->dbl, mn, "");
  LLVMBuildStore(c->b, LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, v, cur, ""), v, cur, ""), mn);
  loop_end(c, &l);
  LLVMValueRef top = LLVMBuildLoad2(c->b, c->dbl, mx, ""), bottom = LLVMBuildLoad2(c->b, c->dbl, mn, "");
  LLVMValueRef dbl0 = LLVMConstReal(c->dbl, 0);
  LLVMValueRef zeros = LLVMBuildAnd(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, top, dbl0, ""),
                                    LLVMBuildFCmp(c->b, LLVMRealOEQ, bottom, dbl0, ""), "");
  LLVMBasicBlockRef zero_bb = LLVMAppendBasicBlockInContext(c->ctx, fn, "zero"),
                    values = LLVMAppendBasicBlockInContext(c->ctx, fn, "values"),
                    done = LLVMAppendBasicBlockInContext(c->ctx, fn, "done");
  LLVMBuildCondBr(c->b, zeros, zero_bb, values);
  LLVMPositionBuilderAtEnd(c->b, zero_bb);
  LLVMValueRef z = str(c, "[ Zero tensor ]\n");
  print(c, &z, 1);
  LLVMBuildBr(c->b, done);
  LLVMPositionBuilderAtEnd(c->b, values);
  LLVMValueRef range[3] = {str(c, "max: %.3f  min: %.3f\n["), top, bottom};
  print(c, range, 3);
  LLVMValueRef most = LLVMConstInt(c->size, CONSOLE_MAX, 0);
  LLVMValueRef shown = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntULT, n, most, ""), n, most, "");
  loop e;
  loop_begin(c, &e, fn, shown);
  LLVMValueRef i = loop_index(c, &e), next = LLVMBuildAdd(c->b, i, LLVMConstInt(c->size, 1, 0), "");
  LLVMValueRef opens = local(c, c->i32, LLVMConstInt(c->i32, 0, 0)), closes = local(c, c->i32, LLVMConstInt(c->i32, 0, 0));
  loop d;
  loop_begin(c, &d, fn, LLVMGetParam(fn, 5));
  LLVMValueRef j = loop_index(c, &d);
  LLVMValueRef s = LLVMBuildLoad2(c->b, c->size, LLVMBuildInBoundsGEP2(c->b, c->size, LLVMGetParam(fn, 4), &j, 1, ""), "");
  LLVMValueRef starts = LLVMBuildICmp(c->b, LLVMIntEQ, LLVMBuildURem(c->b, i, s, ""), zero(c), "");
  LLVMValueRef ends = LLVMBuildICmp(c->b, LLVMIntEQ, LLVMBuildURem(c->b, next, s, ""), zero(c), "");
  LLVMBuildStore(c->b, LLVMBuildAdd(c->b, LLVMBuildLoad2(c->b, c->i32, opens, ""), LLVMBuildZExt(c->b, starts, c->i32, ""), ""),
                 opens);
  LLVMBuildStore(c->b, LLVMBuildAdd(c->b, LLVMBuildLoad2(c->b, c->i32, closes, ""), LLVMBuildZExt(c->b, ends, c->i32, ""), ""),
                 closes);
  loop_end(c, &d);
  LLVMValueRef ncl = LLVMBuildLoad2(c->b, c->i32, closes, "");
  LLVMValueRef el[8] = {str(c, "%.*s%.3f%.*s, %.*s"), LLVMBuildLoad2(c->b, c->i32, opens, ""), str(c, "[[[[[[[["),
                        load_double(c, dt, data, i), ncl, str(c, "]]]]]]]]"), ncl, str(c, "\n\n\n\n\n\n\n\n")};
  print(c, el, 8);
  loop_end(c, &e);
  LLVMBasicBlockRef more = LLVMAppendBasicBlockInContext(c->ctx, fn, "more"),
                    close = LLVMAppendBasicBlockInContext(c->ctx, fn, "close");
  LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntUGT, n, most, ""), more, close);
  LLVMPositionBuilderAtEnd(c->b, more);
  LLVMValueRef dots = str(c, "...");
  print(c, &dots, 1);
  LLVMBuildBr(c->b, close);
  LLVMPositionBuilderAtEnd(c->b, close);
  LLVMValueRef end = str(c, "]\n");
  print(c, &end, 1);
  LLVMBuildBr(c->b, done);
  LLVMPositionBuilderAtEnd(c->b, done);
  LLVMValueRef blank = str(c, "\n");
  print(c, &blank, 1);
  LLVMBuildRetVoid(c->b);
  return fn;
}

static LLVMValueRef size_const(ir *c, uint64_t v) { return LLVMConstInt(c->size, v, 0); }

/* The console's words for a scalar, at the call (Glow prints no max, min or brackets). */
static void console_scalar(ir *c, LLVMBuilderRef at, glow_dtype dt, LLVMValueRef data, const char *name) {
  c->b = at;
  LLVMValueRef args[3] = {str(c, "%s\n[ Scalar containing: %.3f ]\n\n"), str(c, name), load_double(c, dt, data, zero(c))};
  print(c, args, 3);
}

int glow_dump_tensor_call(LLVMModuleRef m, LLVMBuilderRef at, const char *format, LLVMValueRef data,
                          const glow_value *v, const char *path, const char *name) {
  ir c = {m, LLVMGetModuleContext(m), NULL, NULL, NULL, NULL, NULL};
  c.ptr = LLVMPointerTypeInContext(c.ctx, 0);
  c.i32 = LLVMInt32TypeInContext(c.ctx);
  c.size = LLVMIntPtrTypeInContext(c.ctx, LLVMGetModuleDataLayout(m));
  c.dbl = LLVMDoubleTypeInContext(c.ctx);
  int text = strcmp(format, "bin") && strcmp(format, "rawbin");
  if (text && !elem_type(&c, v->dt)) {
    glow_warning(v->name, "-instrument-debug-format=%s: no text form for %s tensors; not written", format,
                 glow_dtype_name(v->dt));
    return 0;
  }
  if (!strcmp(format, "console") && v->rank == 0) {
    console_scalar(&c, at, v->dt, data, name);
    return 0;
  }
  c.b = LLVMCreateBuilderInContext(c.ctx); /* the writers' own: no debug location of the caller's */
  LLVMValueRef fn;
  if (!strcmp(format, "console"))
    fn = console_writer(&c, v->dt);
  else
    fn = text ? txt_writer(&c, v->dt) : bin_writer(&c);
  LLVMDisposeBuilder(c.b);
  c.b = at;
  glow_strbuf type = {0};
  if (format[0] != 'r')
    glow_glow_type(&type, v);
  LLVMValueRef count = size_const(&c, text ? (uint64_t)glow_value_numel(v) : glow_value_bytes(v));
  if (!strcmp(format, "console")) {
    glow_strbuf shape = {0};
    glow_sb_printf(&shape, "shape: ( ");
    for (int k = 0; k < v->rank; k++)
      glow_sb_printf(&shape, "%lld ", (long long)v->dims[k]);
    glow_sb_printf(&shape, ")\n");
    int nslices = v->rank - 1;
    LLVMValueRef sl[GLOW_MAX_RANK];
    for (int k = 0; k < nslices; k++) {
      uint64_t e = 1;
      for (int q = k + 1; q < v->rank; q++)
        e *= (uint64_t)v->dims[q];
      sl[k] = size_const(&c, e);
    }
    LLVMValueRef slices = glow_llvm_const_global(m, LLVMConstArray2(c.size, sl, (uint64_t)nslices), "", 1);
    LLVMValueRef args[6] = {data, count, str(&c, name), str(&c, shape.s), slices, size_const(&c, (uint64_t)nslices)};
    LLVMBuildCall2(at, LLVMGlobalGetValueType(fn), fn, args, 6, "");
    glow_sb_free(&shape);
  } else {
    LLVMValueRef args[4] = {data, count, str(&c, path), str(&c, type.s ? type.s : "")};
    LLVMBuildCall2(at, LLVMGlobalGetValueType(fn), fn, args, 4, "");
  }
  glow_sb_free(&type);
  return 0;
}
