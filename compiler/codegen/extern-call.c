/* A step that calls a function of the bundle's caller (glow_kcall_extern)
 * instead of a kernel: the function declared with C linkage (a program that
 * lacks it does not link), its string and byte arguments private constants,
 * its tensor address and size arrays on the step's stack. */
#include <llvm-c/Core.h>

#include "codegen/codegen-internal.h"

/* A private constant array of the argument's bytes (and the 0 after them). */
static LLVMValueRef bytes_global(LLVMModuleRef m, const glow_karg *a) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMValueRef init = LLVMConstStringInContext2(ctx, (const char *)a->bytes, (size_t)a->i + 1, 1);
  return glow_llvm_const_global(m, init, "extern.arg", 1);
}

/* A stack array of the addresses (ADDRS) or sizes (SIZES) of tensors [first, first + n). */
static LLVMValueRef tensor_array(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef const *area, const glow_graph *g,
                                 const glow_plan *p, const glow_kcall *kc, const glow_karg *a) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0), elem = a->kind == GLOW_KARG_ADDRS ? ptr : i32;
  LLVMTypeRef arr_t = LLVMArrayType2(elem, (uint64_t)(a->n ? a->n : 1));
  LLVMValueRef arr = LLVMBuildAlloca(b, arr_t, a->kind == GLOW_KARG_ADDRS ? "addrs" : "sizes");
  for (int k = 0; k < a->n; k++) {
    int id = kc->tensors[a->first + k];
    LLVMValueRef v;
    if (a->kind == GLOW_KARG_SIZES) {
      v = LLVMConstInt(i32, id < 0 ? 0 : (unsigned long long)glow_value_bytes(&g->vals[id]), 0);
    } else if (id < 0) {
      v = LLVMConstNull(ptr);
    } else {
      GLOW_ASSERT(p->area[id] >= 1 && p->area[id] <= 3);
      LLVMValueRef off = LLVMConstInt(i64, p->offset[id], 0);
      v = LLVMBuildInBoundsGEP2(b, i8, area[p->area[id]], &off, 1, "");
    }
    LLVMValueRef idx[2] = {LLVMConstInt(i64, 0, 0), LLVMConstInt(i64, (unsigned long long)k, 0)};
    LLVMBuildStore(b, v, LLVMBuildInBoundsGEP2(b, arr_t, arr, idx, 2, ""));
  }
  return arr;
}

int glow_extern_call(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef const *area, const glow_graph *g,
                     const glow_plan *p, const glow_node *n, const glow_kcall *kc) {
  for (int k = 0; k < kc->ntensors; k++) {
    int id = kc->tensors[k];
    if (id >= 0 && glow_value_bytes(&g->vals[id]) > INT32_MAX)
      return glow_node_error(g, n, "tensor '%s' has %zu bytes; %s takes sizes as int", g->vals[id].name,
                             glow_value_bytes(&g->vals[id]), kc->kernel);
  }
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), ptr = LLVMPointerTypeInContext(ctx, 0);
  LLVMTypeRef types[GLOW_KCALL_MAX_ARGS];
  LLVMValueRef args[GLOW_KCALL_MAX_ARGS];
  for (int i = 0; i < kc->nargs; i++) {
    const glow_karg *a = &kc->args[i];
    types[i] = a->kind == GLOW_KARG_INT ? i32 : ptr;
    switch (a->kind) {
    case GLOW_KARG_INT:
      if (a->i < INT32_MIN || a->i > INT32_MAX)
        return glow_node_error(g, n, "argument %d of %s is %lld, which an int does not hold", i, kc->kernel,
                               (long long)a->i);
      args[i] = LLVMConstInt(i32, (unsigned long long)a->i, 1);
      break;
    case GLOW_KARG_STRING:
    case GLOW_KARG_BYTES: args[i] = bytes_global(m, a); break;
    case GLOW_KARG_ADDRS:
    case GLOW_KARG_SIZES: args[i] = tensor_array(b, m, area, g, p, kc, a); break;
    }
  }
  LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(ctx), types, (unsigned)kc->nargs, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(m, kc->kernel);
  if (!fn)
    fn = LLVMAddFunction(m, kc->kernel, ft);
  else if (LLVMGlobalGetValueType(fn) != ft)
    return glow_node_error(g, n, "calls %s with arguments of other types than another step does", kc->kernel);
  LLVMBuildCall2(b, ft, fn, args, (unsigned)kc->nargs, "");
  return 0;
}
