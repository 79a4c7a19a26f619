/* require a module about to be made into an object; measures the most stack its exported
 * functions use (glowc.h, glow_stack_usage). The frames are the code generator's own: every
 * function gets the attribute "warn-stack-size"="0", so that LLVM's prologue/epilogue
 * inserter reports each frame ("stack frame size (N) exceeds limit (0) in function 'f'")
 * through the context's diagnostic handler, which this file installs while the object is
 * made. The call graph is the module's IR after optimization: calls the code generator adds
 * later go to library routines (memcpy, __aeabi_*), which GLOW_STACK_LIBRARY_BYTES covers. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "codegen/codegen-internal.h"

struct glow_stack_probe {
  LLVMContextRef ctx;
  LLVMDiagnosticHandler prev;
  void *prev_ctx;
  glow_str_table index; /* function name -> frame number */
  int n, cap;
  char **names;
  uint64_t *bytes;
  int llvm_errors;
};

static void record(glow_stack_probe *p, const char *name, size_t len, uint64_t bytes) {
  char *key = glow_xmalloc(len + 1);
  memcpy(key, name, len);
  key[len] = 0;
  int *at = glow_str_table_get(&p->index, key);
  if (at) { /* made twice (the assembly, then the object): the same frame */
    if (bytes > p->bytes[*at])
      p->bytes[*at] = bytes;
    free(key);
    return;
  }
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 64;
    p->names = glow_xrealloc(p->names, sizeof *p->names * (size_t)p->cap);
    p->bytes = glow_xrealloc(p->bytes, sizeof *p->bytes * (size_t)p->cap);
  }
  p->names[p->n] = key;
  p->bytes[p->n] = bytes;
  glow_str_table_put(&p->index, key, p->n++);
}

/* LLVM's diagnostics while the object is made: the frame sizes are kept; errors and
 * warnings are printed as LLVM's own handler prints them; remarks nobody asked for are
 * dropped, as LLVM drops them. */
static void on_diagnostic(LLVMDiagnosticInfoRef di, void *ctx) {
  glow_stack_probe *p = ctx;
  char *s = LLVMGetDiagInfoDescription(di);
  LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(di);
  const char *size = strstr(s, "stack frame size ("), *fn = strstr(s, ") in function '");
  char *end = s;
  unsigned long long bytes = size ? strtoull(size + 18, &end, 10) : 0;
  const char *close = fn ? strrchr(fn, '\'') : NULL;
  if (size && fn && close > fn + 15 && *end == ')') {
    record(p, fn + 15, (size_t)(close - (fn + 15)), bytes);
  } else if (sev == LLVMDSError) {
    glow_error("LLVM", "%s", s);
    p->llvm_errors++;
  } else if (sev == LLVMDSWarning) {
    glow_warning("LLVM", "%s", s);
  } else if (sev == LLVMDSNote) {
    glow_note("LLVM: note: %s\n", s);
  }
  LLVMDisposeMessage(s);
}

glow_stack_probe *glow_stack_probe_begin(LLVMModuleRef m) {
  glow_stack_probe *p = glow_xcalloc(1, sizeof *p);
  p->ctx = LLVMGetModuleContext(m);
  LLVMAttributeRef warn = LLVMCreateStringAttribute(p->ctx, "warn-stack-size", 15, "0", 1);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, warn);
  p->prev = LLVMContextGetDiagnosticHandler(p->ctx);
  p->prev_ctx = LLVMContextGetDiagnosticContext(p->ctx);
  LLVMContextSetDiagnosticHandler(p->ctx, on_diagnostic, p);
  return p;
}

/* C library and compiler helper routines, which the code generator may call from anywhere
 * (GLOW_STACK_LIBRARY_BYTES): memcpy, memmove, memset and the reserved names (__aeabi_*,
 * __udivdi3, ...). */
static int library_routine(const char *name) {
  return !strncmp(name, "__", 2) || !strcmp(name, "memcpy") || !strcmp(name, "memmove") || !strcmp(name, "memset");
}

typedef struct graph {
  int n;
  glow_str_table index; /* name -> function number */
  LLVMValueRef *fn;
  const char **name;
  uint64_t *frame;
  int **callee, *ncallee;
  int *taken;       /* its address is used other than by a call: an unknown callee may call it */
  int *calls_out;   /* it calls a function outside the module (not a library routine) or through a pointer */
  uint64_t *depth;  /* the deepest path from it, its frame included (valid when state is 2) */
  int *next;        /* the callee on that path, or -1 */
  int *state;       /* 0 not seen, 1 on the path being walked, 2 done */
} graph;

static void note_unknown(glow_stack_usage *u, const char *fmt, const char *what) {
  size_t len = strlen(u->unknown);
  if (strstr(u->unknown, what) || len + strlen(what) + 48 >= sizeof u->unknown)
    return;
  snprintf(u->unknown + len, sizeof u->unknown - len, fmt, len ? "; " : "", what);
}

static int index_of(graph *g, LLVMValueRef f) {
  size_t len;
  const char *name = LLVMGetValueName2(f, &len);
  int *at = len ? glow_str_table_get(&g->index, name) : NULL;
  if (at)
    return g->fn[*at] == f ? *at : -1;
  for (int i = 0; i < g->n && !len; i++) /* an unnamed function */
    if (g->fn[i] == f)
      return i;
  return -1;
}

static void add_callee(graph *g, int from, int to) {
  for (int k = 0; k < g->ncallee[from]; k++)
    if (g->callee[from][k] == to)
      return;
  g->callee[from] = glow_xrealloc(g->callee[from], sizeof **g->callee * (size_t)(g->ncallee[from] + 1));
  g->callee[from][g->ncallee[from]++] = to;
}

/* Function i's calls and stack allocations. */
static void scan(graph *g, int i, glow_stack_usage *u) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(g->fn[i]);
  for (LLVMBasicBlockRef bb = entry; bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      if (LLVMIsAAllocaInst(in) && (bb != entry || !LLVMIsConstant(LLVMGetOperand(in, 0))))
        note_unknown(u, "%s%s allocates stack of a size known only when it runs", g->name[i]);
      LLVMOpcode op = LLVMGetInstructionOpcode(in);
      if (op != LLVMCall && op != LLVMInvoke && op != LLVMCallBr)
        continue;
      LLVMValueRef callee = LLVMGetCalledValue(in);
      if (!LLVMIsAFunction(callee)) {
        if (!LLVMIsAInlineAsm(callee)) {
          g->calls_out[i] = 1;
          note_unknown(u, "%s%s calls through a function pointer", g->name[i]);
        }
        continue;
      }
      if (LLVMGetIntrinsicID(callee))
        continue;
      int to = index_of(g, callee);
      size_t len;
      const char *name = LLVMGetValueName2(callee, &len);
      if (to >= 0) {
        add_callee(g, i, to);
      } else if (!library_routine(name)) {
        g->calls_out[i] = 1;
        note_unknown(u, "%sit calls %s, whose stack is the program's", name);
      }
    }
}

/* Its address is taken: some use is not the callee of a call. */
static int address_taken(LLVMValueRef f) {
  for (LLVMUseRef use = LLVMGetFirstUse(f); use; use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    if (!(LLVMIsACallInst(user) || LLVMIsAInvokeInst(user)) || LLVMGetCalledValue(user) != f)
      return 1;
  }
  return 0;
}

static uint64_t walk(graph *g, int i, glow_stack_usage *u);

/* The deepest of the functions an unknown callee may call back (every address-taken one). */
static uint64_t deepest_taken(graph *g, glow_stack_usage *u, int *at) {
  uint64_t best = 0;
  *at = -1;
  for (int k = 0; k < g->n; k++)
    if (g->taken[k]) {
      uint64_t d = walk(g, k, u);
      if (d > best || *at < 0) {
        best = d;
        *at = k;
      }
    }
  return best;
}

static uint64_t walk(graph *g, int i, glow_stack_usage *u) {
  if (g->state[i] == 2)
    return g->depth[i];
  if (g->state[i] == 1) { /* recursion: a cycle has no bound this walk can give */
    note_unknown(u, "%s%s is recursive", g->name[i]);
    return 0;
  }
  g->state[i] = 1;
  uint64_t best = 0;
  int next = -1;
  for (int k = 0; k < g->ncallee[i]; k++) {
    uint64_t d = walk(g, g->callee[i][k], u);
    if (d > best || next < 0) {
      best = d;
      next = g->callee[i][k];
    }
  }
  if (g->calls_out[i]) {
    int at;
    uint64_t d = deepest_taken(g, u, &at);
    if (at >= 0 && at != i && d > best) {
      best = d;
      next = at;
    }
  }
  g->state[i] = 2;
  g->depth[i] = g->frame[i] + best;
  g->next[i] = next;
  return g->depth[i];
}

static void describe_path(const graph *g, int root, glow_stack_usage *u) {
  size_t len = 0;
  for (int i = root, hops = 0; i >= 0 && hops < g->n; i = g->next[i], hops++) {
    char part[160];
    snprintf(part, sizeof part, "%s%s (%llu)", hops ? " > " : "", g->name[i], (unsigned long long)g->frame[i]);
    if (len + strlen(part) + 8 >= sizeof u->path) {
      snprintf(u->path + len, sizeof u->path - len, " > ...");
      return;
    }
    len += (size_t)snprintf(u->path + len, sizeof u->path - len, "%s", part);
  }
}

int glow_stack_probe_end(glow_stack_probe *p, LLVMModuleRef m, glow_stack_usage *u) {
  LLVMContextSetDiagnosticHandler(p->ctx, p->prev, p->prev_ctx);
  int rc = p->llvm_errors ? -1 : 0;
  if (u && !rc) {
    memset(u, 0, sizeof *u);
    graph g;
    memset(&g, 0, sizeof g);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
      g.n += !LLVMIsDeclaration(f);
    g.fn = glow_xcalloc((size_t)g.n + 1, sizeof *g.fn);
    g.name = glow_xcalloc((size_t)g.n + 1, sizeof *g.name);
    g.frame = glow_xcalloc((size_t)g.n + 1, sizeof *g.frame);
    g.callee = glow_xcalloc((size_t)g.n + 1, sizeof *g.callee);
    g.ncallee = glow_xcalloc((size_t)g.n + 1, sizeof *g.ncallee);
    g.taken = glow_xcalloc((size_t)g.n + 1, sizeof *g.taken);
    g.calls_out = glow_xcalloc((size_t)g.n + 1, sizeof *g.calls_out);
    g.depth = glow_xcalloc((size_t)g.n + 1, sizeof *g.depth);
    g.next = glow_xcalloc((size_t)g.n + 1, sizeof *g.next);
    g.state = glow_xcalloc((size_t)g.n + 1, sizeof *g.state);
    uint64_t ptr = LLVMPointerSize(LLVMGetModuleDataLayout(m));
    int k = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
      if (LLVMIsDeclaration(f))
        continue;
      size_t len;
      g.fn[k] = f;
      g.name[k] = LLVMGetValueName2(f, &len);
      if (len)
        glow_str_table_put(&g.index, g.name[k], k);
      int *at = glow_str_table_get(&p->index, g.name[k]);
      /* No report: a frame of 0 bytes. The return address comes on top: some machines (x86)
       * push it outside the callee's frame; elsewhere this counts a few bytes twice. */
      g.frame[k] = (at ? p->bytes[*at] : 0) + ptr;
      g.taken[k] = address_taken(f);
      k++;
    }
    for (int i = 0; i < g.n; i++)
      scan(&g, i, u);
    int root = -1;
    for (int i = 0; i < g.n; i++) {
      if (LLVMGetLinkage(g.fn[i]) != LLVMExternalLinkage)
        continue;
      uint64_t d = walk(&g, i, u);
      if (root < 0 || d > g.depth[root])
        root = i;
    }
    u->measured = 1;
    if (root >= 0) {
      u->bytes = g.depth[root] + GLOW_STACK_LIBRARY_BYTES;
      snprintf(u->entry, sizeof u->entry, "%s", g.name[root]);
      describe_path(&g, root, u);
    }
    for (int i = 0; i < g.n; i++)
      free(g.callee[i]);
    free(g.fn);
    free(g.name);
    free(g.frame);
    free(g.callee);
    free(g.ncallee);
    free(g.taken);
    free(g.calls_out);
    free(g.depth);
    free(g.next);
    free(g.state);
    glow_str_table_free(&g.index);
  }
  for (int i = 0; i < p->n; i++)
    free(p->names[i]);
  free(p->names);
  free(p->bytes);
  glow_str_table_free(&p->index);
  free(p);
  return rc;
}
