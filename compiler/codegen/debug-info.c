/* -g: the step listing (<name>.g.txt) and the DWARF that points into it.
 * The listing has one line per schedule step; its line numbers are the bundle's
 * source lines: the entry's subprogram opens on line 1, each step's function
 * (a subprogram named <entry>_step<i>_<node>) and the entry's call of it sit on
 * the step's line, and the entry returns on the last line. The compile unit
 * names the listing by its file name with the bundle folder's absolute path as
 * DW_AT_comp_dir, so gdb finds it whatever folder the program runs from. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "codegen/codegen-internal.h"

struct glow_dbg {
  LLVMDIBuilderRef db;
  LLVMContextRef ctx;
  LLVMMetadataRef file, fn_type;
};

unsigned glow_listing_line(int step) { return step < 0 ? 1u : (unsigned)step + 2u; }

static const char *area_name(int area) {
  return area == 1 ? "constants" : area == 2 ? "mutable" : area == 3 ? "activations" : "none";
}

/* A model's name on one line of the listing: a control character (a newline would move
 * every later step off its line) as \x<hex>, a backslash doubled. */
static void name(glow_strbuf *b, const char *s) {
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch < 0x20 || ch == 0x7f)
      glow_sb_printf(b, "\\x%02x", ch);
    else
      glow_sb_printf(b, ch == '\\' ? "\\\\" : "%c", ch);
  }
}

static void tensor(glow_strbuf *b, const glow_graph *g, const glow_plan *p, int id) {
  char s[200];
  if (id < 0) {
    glow_sb_printf(b, " -");
    return;
  }
  const glow_value *v = &g->vals[id];
  glow_sb_printf(b, " ");
  name(b, v->name ? v->name : "?");
  glow_sb_printf(b, " %s", glow_shape_str(v, s, sizeof s));
  if (p->area[id])
    glow_sb_printf(b, " @%s+%llu", area_name(p->area[id]), (unsigned long long)p->offset[id]);
}

void glow_emit_listing(const glow_graph *g, const glow_plan *p, const glow_bundle_options *o, glow_strbuf *b) {
  const char *entry = o->entry_name ? o->entry_name : o->network_name;
  name(b, entry);
  glow_sb_printf(b, ": %d steps (glowc %s -g: the line table of the bundle's object points at these lines)\n",
                 p->norder, GLOWC_VERSION);
  for (int s = 0; s < p->norder; s++) {
    const glow_node *n = &g->nodes[p->order[s]];
    glow_kcall kc;
    memset(&kc, 0, sizeof kc);
    int lowered = !glow_op_get(n->op)->lower(g, n, &kc);
    glow_sb_printf(b, "step %d: ", s);
    name(b, n->name && *n->name ? n->name : "-");
    glow_sb_printf(b, " (%s) -> %s;", glow_op_get(n->op)->onnx_name, lowered ? kc.kernel : "?");
    glow_kcall_free(&kc);
    glow_sb_printf(b, " out:");
    for (int k = 0; k < n->nout; k++)
      tensor(b, g, p, n->out[k]);
    glow_sb_printf(b, "; in:");
    for (int k = 0; k < n->nin; k++)
      tensor(b, g, p, n->in[k]);
    glow_sb_printf(b, "\n");
  }
  glow_sb_printf(b, "return 0\n");
}

void glow_step_debug_name(char *dst, size_t cap, const char *entry, int step, const glow_node *n) {
  const char *name = n->name && *n->name ? n->name : glow_op_get(n->op)->onnx_name;
  size_t k = (size_t)snprintf(dst, cap, "%.64s_step%d_", entry, step);
  int gap = 0; /* other characters: one '_' for a run of them, none at either end */
  for (int i = 0; name[i] && i < 64 && k + 2 < cap; i++) {
    if (!isalnum((unsigned char)name[i])) {
      gap = 1;
      continue;
    }
    if (gap && dst[k - 1] != '_')
      dst[k++] = '_';
    dst[k++] = name[i];
    gap = 0;
  }
  dst[k < cap ? k : cap - 1] = 0;
}

glow_dbg *glow_dbg_create(LLVMModuleRef m, const glow_bundle_options *o) {
  if (!o->debug_info)
    return NULL;
  glow_dbg *d = glow_xcalloc(1, sizeof *d);
  d->ctx = LLVMGetModuleContext(m);
  d->db = LLVMCreateDIBuilder(m);
  char fallback[300];
  const char *path = o->listing_path;
  if (!path) { /* no folder given: the listing's name alone, found from the program's folder */
    snprintf(fallback, sizeof fallback, "%s.g.txt", o->network_name);
    path = fallback;
  }
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  size_t dirlen = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
  d->file = LLVMDIBuilderCreateFile(d->db, base, strlen(base), slash ? path : ".", dirlen);
  const char *producer = "glowc " GLOWC_VERSION;
  LLVMDIBuilderCreateCompileUnit(d->db, LLVMDWARFSourceLanguageC, d->file, producer, strlen(producer), 1, "", 0, 0, "",
                                 0, LLVMDWARFEmissionFull, 0, 0, 0, "", 0, "", 0);
  d->fn_type = LLVMDIBuilderCreateSubroutineType(d->db, d->file, NULL, 0, LLVMDIFlagZero);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(d->ctx);
  /* DWARF 4: read by the older gdb and binutils of embedded toolchains too. */
  LLVMAddModuleFlag(m, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
                    LLVMValueAsMetadata(LLVMConstInt(i32, 4, 0)));
  LLVMAddModuleFlag(m, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                    LLVMValueAsMetadata(LLVMConstInt(i32, LLVMDebugMetadataVersion(), 0)));
  return d;
}

LLVMMetadataRef glow_dbg_function(glow_dbg *d, LLVMValueRef fn, const char *name, unsigned line, int exported) {
  if (!d)
    return NULL;
  LLVMMetadataRef sp = LLVMDIBuilderCreateFunction(d->db, d->file, name, strlen(name), "", 0, d->file, line, d->fn_type,
                                                   !exported, 1, line, LLVMDIFlagPrototyped, 1);
  LLVMSetSubprogram(fn, sp);
  return sp;
}

void glow_dbg_at(glow_dbg *d, LLVMBuilderRef b, LLVMMetadataRef scope, unsigned line) {
  if (d)
    LLVMSetCurrentDebugLocation2(b, LLVMDIBuilderCreateDebugLocation(d->ctx, line, 0, scope, NULL));
}

void glow_dbg_finish(glow_dbg *d) {
  if (!d)
    return;
  LLVMDIBuilderFinalize(d->db);
  LLVMDisposeDIBuilder(d->db);
  free(d);
}
