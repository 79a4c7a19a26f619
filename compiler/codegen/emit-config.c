/* The dynamic API's `<name>_config` and glowc's `<name>_tensor_info`, added to
 * the module that holds the entry (a CPU bundle's, or a GPU bundle's host module). */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "codegen/codegen-internal.h"
#include "codegen/symbol-names.h"
#include "codegen/tensor-quant.h"

typedef struct {
  LLVMContextRef ctx;
  LLVMModuleRef m;
  LLVMTypeRef ptr, i8, i64;
} cfg_types;

static cfg_types types_of(LLVMModuleRef m) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  return (cfg_types){ctx, m, LLVMPointerTypeInContext(ctx, 0), LLVMInt8TypeInContext(ctx), LLVMInt64TypeInContext(ctx)};
}

static LLVMValueRef const_i64(LLVMTypeRef i64, uint64_t v) { return LLVMConstInt(i64, v, 0); }

LLVMValueRef glow_llvm_const_global(LLVMModuleRef m, LLVMValueRef init, const char *name, int local) {
  LLVMValueRef gv = LLVMAddGlobal(m, LLVMTypeOf(init), name);
  LLVMSetInitializer(gv, init);
  LLVMSetGlobalConstant(gv, 1);
  if (local) {
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(gv, LLVMGlobalUnnamedAddr);
  }
  return gv;
}

static LLVMValueRef const_string(LLVMModuleRef m, const char *s, const char *name) {
  LLVMValueRef init = LLVMConstStringInContext2(LLVMGetModuleContext(m), s, strlen(s), 0);
  return glow_llvm_const_global(m, init, name, 1);
}

/* The dynamic API's `<name>_config`: sizes, alignment and the symbol table. */
void glow_emit_config(LLVMModuleRef m, const glow_graph *g, const glow_plan *p, const char *net) {
  cfg_types t = types_of(m);
  cfg_types *c = &t;
  LLVMTypeRef ent_fields[4] = {c->ptr, c->i64, c->i64, c->i8};
  LLVMTypeRef ent_t = LLVMStructTypeInContext(c->ctx, ent_fields, 4, 0);
  int nsym = g->ninputs + g->noutputs;
  LLVMValueRef *ents = glow_xmalloc(sizeof *ents * (size_t)(nsym ? nsym : 1));
  char **sym = glow_symbol_names(g); /* as Glow names them; the model's names go in tensor_info */
  for (int i = 0; i < nsym; i++) {
    int id = i < g->ninputs ? g->inputs[i] : g->outputs[i - g->ninputs];
    const glow_value *v = &g->vals[id];
    LLVMValueRef f[4] = {const_string(c->m, sym[i], "sym"), const_i64(c->i64, p->offset[id]),
                         const_i64(c->i64, (uint64_t)glow_value_numel(v)), LLVMConstInt(c->i8, 1, 0)};
    ents[i] = LLVMConstStructInContext(c->ctx, f, 4, 0);
  }
  LLVMValueRef table_init = LLVMConstArray2(ent_t, ents, (uint64_t)nsym);
  LLVMValueRef table = LLVMAddGlobal(c->m, LLVMTypeOf(table_init), "symbolTable");
  LLVMSetInitializer(table, table_init);
  LLVMSetGlobalConstant(table, 1);
  LLVMSetLinkage(table, LLVMPrivateLinkage); /* named: not unnamed_addr, as before */
  free(ents);
  glow_symbol_names_free(sym, nsym);

  /* glowc's extension: the model's name, dtype, shape and quantization (scale 0: none) of
   * every symbol, in symbol-table order (struct GlowTensorInfo of the header). */
  LLVMTypeRef dims_t = LLVMArrayType2(c->i64, GLOW_MAX_RANK), f64 = LLVMDoubleTypeInContext(c->ctx);
  LLVMTypeRef info_fields[7] = {c->ptr, c->i64, c->i64, c->i64, dims_t, f64, c->i64};
  LLVMTypeRef info_t = LLVMStructTypeInContext(c->ctx, info_fields, 7, 0);
  LLVMValueRef *infos = glow_xmalloc(sizeof *infos * (size_t)(nsym ? nsym : 1));
  for (int i = 0; i < nsym; i++) {
    int id = i < g->ninputs ? g->inputs[i] : g->outputs[i - g->ninputs];
    const glow_value *v = &g->vals[id];
    LLVMValueRef d[GLOW_MAX_RANK];
    for (int k = 0; k < GLOW_MAX_RANK; k++)
      d[k] = const_i64(c->i64, k < v->rank ? (uint64_t)v->dims[k] : 0);
    double scale;
    int64_t zero;
    glow_value_quant(g, id, &scale, &zero);
    LLVMValueRef f[7] = {const_string(c->m, v->name, "sym"), const_i64(c->i64, (uint64_t)v->dt),
                         const_i64(c->i64, (uint64_t)v->rank), const_i64(c->i64, i < g->ninputs ? 1 : 2),
                         LLVMConstArray2(c->i64, d, GLOW_MAX_RANK), LLVMConstReal(f64, scale),
                         LLVMConstInt(c->i64, (unsigned long long)zero, 1)};
    infos[i] = LLVMConstStructInContext(c->ctx, f, 7, 0);
  }
  char info_name[300];
  snprintf(info_name, sizeof info_name, "%s_tensor_info", net);
  LLVMValueRef info_init = LLVMConstArray2(info_t, infos, (uint64_t)nsym);
  glow_llvm_const_global(c->m, info_init, info_name, 0);
  free(infos);

  LLVMTypeRef cfg_fields[6] = {c->i64, c->i64, c->i64, c->i64, c->i64, c->ptr};
  LLVMTypeRef cfg_t = LLVMStructTypeInContext(c->ctx, cfg_fields, 6, 0);
  LLVMValueRef f[6] = {const_i64(c->i64, p->const_size), const_i64(c->i64, p->mutable_size),
                       const_i64(c->i64, p->act_size),   const_i64(c->i64, GLOW_ALIGN),
                       const_i64(c->i64, (uint64_t)nsym), table};
  char name[300];
  snprintf(name, sizeof name, "%s_config", net);
  LLVMValueRef cfg = LLVMAddGlobal(c->m, cfg_t, name);
  LLVMSetInitializer(cfg, LLVMConstNamedStruct(cfg_t, f, 6));
  LLVMSetGlobalConstant(cfg, 1);
  LLVMSetAlignment(cfg, 8);
}

