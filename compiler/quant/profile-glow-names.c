/* Profiles written by Glow, renamed to glowc's value names. Glow names an entry
 * "<node name>:<result>" after a node of its own graph as it stood when it
 * profiled: after its loader, its graph optimizations and lowering. So (from
 * Glow's sources: ProtobufLoader's loadOperatorName, Support's legalizeName,
 * Module::uniqueName, ONNXModelLoader, GraphOptimizer, Lower):
 *   - a node is named after the ONNX node (an unnamed one <op type>_<first
 *     output>, as glowc's importer names it too), every character outside
 *     [A-Za-z0-9_] made '_' ("/conv1/Conv" -> "_conv1_Conv"), "A" prepended to a
 *     name starting with a digit;
 *   - the several Glow nodes made from one ONNX node, and nodes made again by
 *     later passes, take "__1", "__2", ... after that name, and lowering adds
 *     a decoration ("_max" for Relu, "_dot" and "_bias" for FullyConnected);
 *   - Conv is Transpose "B", Transpose "B__1" (the input, NHWC),
 *     Convolution "B__2" (the output), Transpose "B__3"; pooling is Transpose
 *     "B" (the input), the pool "B__1", Transpose "B__2"; a BatchNormalization
 *     is folded into the Convolution before it; Gemm becomes FullyConnected
 *     "B__1", lowered to "B__1_dot" (before the bias) and "B__1_bias"; MatMul
 *     and the Add after it are fused into such a FullyConnected.
 * Each glowc value is looked up through the node computing it: among the
 * entries whose name reduces to that node's, the one its op kind says holds
 * the node's result (the Convolution, not the input transpose). Glow's
 * entries for its own nodes (transposes, splats, constants) are not used.
 * This follows Glow's source code; no Glow binary was at hand to check it
 * against, so a name that does not fit is an error naming what was sought. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "quant/quant.h"

/* Lowering decorations that follow a node name; those before GLOW_DECO_RESULTS
 * name intermediate values (never a glowc value), the others a node's result. */
static const char *const decos[] = {"_dot",      "_TransposeA", "_TransposeB", "_MatMul", ".minClip",
                                    ".maxClip",  ".minSplat",   ".maxSplat",   "_bias",   "_max",
                                    "_AddC",     "_result"};
#define GLOW_DECO_RESULTS 8

typedef struct {
  const glow_profile_entry *e;
  char *base; /* the node name, decoration and "__k" removed */
  int k;      /* "__k", 0 without */
  int deco;   /* index in decos, -1 without */
  int resno;
} gkey;

static char *legalize(const char *s) {
  size_t n = strlen(s);
  char *r = glow_xmalloc(n + 2), *o = r;
  if (!*s || isdigit((unsigned char)*s))
    *o++ = 'A';
  for (; *s; s++)
    *o++ = isalnum((unsigned char)*s) || *s == '_' ? *s : '_';
  *o = 0;
  return r;
}

/* One reading of an entry's name; strip_deco: whether a decoration is removed. */
static int parse_key(const glow_profile_entry *e, int strip_deco, gkey *k) {
  const char *colon = strrchr(e->name, ':');
  if (!colon || !colon[1] || strlen(colon + 1) > 6 || strspn(colon + 1, "0123456789") != strlen(colon + 1))
    return -1;
  k->e = e;
  k->resno = atoi(colon + 1);
  size_t n = (size_t)(colon - e->name);
  k->base = glow_xmalloc(n + 1);
  memcpy(k->base, e->name, n);
  k->base[n] = 0;
  k->deco = -1;
  for (int d = 0; strip_deco && d < (int)(sizeof decos / sizeof decos[0]); d++) {
    size_t dl = strlen(decos[d]);
    if (n > dl && !strcmp(k->base + n - dl, decos[d])) {
      k->base[n -= dl] = 0;
      k->deco = d;
      break;
    }
  }
  k->k = 0;
  size_t digits = 0;
  while (digits < n && isdigit((unsigned char)k->base[n - 1 - digits]))
    digits++;
  if (digits && digits < 6 && n > digits + 2 && !strncmp(k->base + n - digits - 2, "__", 2)) {
    k->k = atoi(k->base + n - digits);
    k->base[n - digits - 2] = 0;
  }
  return 0;
}

/* How well an entry fits as the result of an op of that ONNX kind (higher is
 * better, negative never). */
static int fit(const char *op, const gkey *k, int fused_fc) {
  const char *d = k->deco >= 0 ? decos[k->deco] : "";
  int plain = k->deco < 0, result = plain || k->deco >= GLOW_DECO_RESULTS;
  if (fused_fc || !strcmp(op, "Gemm")) /* FullyConnected "B__1", lowered */
    return !strcmp(d, "_bias") ? (k->k == 1 ? 100 : 60)
           : plain && k->k == 1 ? 90
           : !strcmp(d, "_AddC") ? 80
           : plain              ? 70 - k->k
                                : -1;
  if (!strcmp(op, "MatMul")) /* "B", or the product "B__1_dot" of a fused FullyConnected */
    return plain && k->k == 0 ? 100 : !strcmp(d, "_dot") ? 90 : plain ? 50 + k->k : -1;
  if (!result)
    return -1;
  if (!strcmp(op, "Conv"))
    return !plain ? -1 : k->k == 2 ? 100 : k->k >= 3 ? 50 + k->k : -1;
  if (strstr(op, "Pool"))
    return !plain ? -1 : k->k == 1 ? 100 : k->k >= 2 ? 50 + k->k : -1;
  if (!strcmp(op, "Softmax") || !strcmp(op, "LogSoftmax"))
    return !plain ? -1 : k->k >= 1 ? 50 + k->k : 10;
  return plain ? 50 + k->k : 40 + k->k; /* one node (made again by later passes: the highest __k) */
}

/* The keys sorted by base name, and the entries sorted by name (ties in file
 * order), so that each value's lookups are binary searches: the renaming is
 * O((values + entries) log entries), not their product. */
typedef struct {
  gkey *keys;
  int nkeys;
  const glow_profile_entry **by_name;
  int nentries;
} gindex;

static int key_cmp(const void *a, const void *b) {
  const gkey *x = a, *y = b;
  int c = strcmp(x->base, y->base);
  return c ? c : (x->e > y->e) - (x->e < y->e);
}

static int entry_cmp(const void *a, const void *b) {
  const glow_profile_entry *const *x = a, *const *y = b;
  int c = strcmp((*x)->name, (*y)->name);
  return c ? c : (*x > *y) - (*x < *y);
}

/* The first key whose base is b (keys sorted by base), or nkeys. */
static int first_key(const gindex *ix, const char *b) {
  int lo = 0, hi = ix->nkeys;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (strcmp(ix->keys[mid].base, b) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The best entry for result r of a node named `node` of ONNX kind op, or NULL. */
static const glow_profile_entry *lookup(const gindex *ix, const char *node, const char *op, int r, int fused_fc) {
  char *b = legalize(node);
  const gkey *best = NULL;
  int bestfit = -1;
  for (int i = first_key(ix, b); i < ix->nkeys && !strcmp(ix->keys[i].base, b); i++) {
    const gkey *k = &ix->keys[i];
    if (k->resno != r)
      continue;
    int f = fit(op, k, fused_fc);
    if (f > bestfit || (f == bestfit && f >= 0 && strcmp(k->e->name, best->e->name) < 0)) {
      best = k;
      bestfit = f;
    }
  }
  free(b);
  return bestfit >= 0 ? best->e : NULL;
}

/* The live node computing value v (and its result number), or NULL. */
static const glow_node *producer(const glow_graph *g, int v, int *r) {
  int p = g->vals[v].producer;
  if (p < 0 || g->nodes[p].dead)
    return NULL;
  for (int k = 0; k < g->nodes[p].nout; k++)
    if (g->nodes[p].out[k] == v) {
      *r = k;
      return &g->nodes[p];
    }
  return NULL;
}

/* An Add reading a MatMul's result: Glow fused the two into a FullyConnected
 * named after the MatMul. Returns that MatMul, or NULL. */
static const glow_node *fused_matmul(const glow_graph *g, const glow_node *n) {
  if (n->op != GLOW_OP_ADD)
    return NULL;
  for (int i = 0; i < n->nin && i < 2; i++) {
    int r;
    const glow_node *m = n->in[i] >= 0 ? producer(g, n->in[i], &r) : NULL;
    if (m && m->op == GLOW_OP_MAT_MUL)
      return m;
  }
  return NULL;
}

/* The first entry (in file order) named exactly `name`, or NULL. */
static const glow_profile_entry *exact(const gindex *ix, const char *name) {
  int lo = 0, hi = ix->nentries;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (strcmp(ix->by_name[mid]->name, name) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < ix->nentries && !strcmp(ix->by_name[lo]->name, name) ? ix->by_name[lo] : NULL;
}

/* The entry for value v: through its node, else under glowc's own name. */
static const glow_profile_entry *entry_for(const gindex *ix, const glow_graph *g, int v, glow_strbuf *sought) {
  const char *name = g->vals[v].name;
  char *key = glow_xmalloc(strlen(name) + 8);
  int r;
  const glow_node *n = producer(g, v, &r);
  const glow_profile_entry *e = NULL;
  if (!n) { /* a graph input: a Placeholder of the legalized name */
    char *l = legalize(name);
    sprintf(key, "%s:0", name);
    glow_sb_printf(sought, "%s:0", l);
    e = exact(ix, key);
    key = glow_xrealloc(key, strlen(l) + 8);
    sprintf(key, "%s:0", l);
    e = e ? e : exact(ix, key);
    free(l);
  } else {
    const glow_node *mm = fused_matmul(g, n);
    const char *op = glow_op_get(n->op)->onnx_name;
    char *l = legalize(n->name);
    glow_sb_printf(sought, "%s entries of node '%s' (%s)", l, n->name, op);
    free(l);
    e = lookup(ix, n->name, op, r, 0);
    if (!e && mm)
      e = lookup(ix, mm->name, "MatMul", 0, 1);
    sprintf(key, "%s:0", name);
    e = e ? e : exact(ix, key);
  }
  free(key);
  return e;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const glow_profile_entry *)a)->name, ((const glow_profile_entry *)b)->name);
}

int glow_profile_is_glows(const glow_profile *p) { return strncmp(p->tools_version, "glowc ", 6) != 0; }

glow_profile *glow_profile_from_glow(const glow_profile *p, const glow_graph *g, const char *path, int verbose) {
  gindex ix = {glow_xmalloc(sizeof(gkey) * (size_t)(2 * p->nentries + 1)), 0,
               glow_xmalloc(sizeof(glow_profile_entry *) * (size_t)(p->nentries + 1)), p->nentries};
  for (int i = 0; i < p->nentries; i++)
    ix.by_name[i] = &p->entries[i];
  qsort(ix.by_name, (size_t)p->nentries, sizeof *ix.by_name, entry_cmp);
  for (int i = 0; i < p->nentries; i++)
    for (int strip = 0; strip < 2; strip++) {
      gkey k;
      if (parse_key(&p->entries[i], strip, &k) == 0) {
        if (strip && k.deco < 0) {
          free(k.base);
          continue; /* the same reading as without */
        }
        ix.keys[ix.nkeys++] = k;
      }
    }
  qsort(ix.keys, (size_t)ix.nkeys, sizeof *ix.keys, key_cmp);
  int *ids, n, missing = 0, exact_names = 0, used = 0;
  char *is_used = glow_xcalloc((size_t)p->nentries + 1, 1);
  glow_profile_values(g, &ids, &n);
  glow_profile *q = glow_xcalloc(1, sizeof *q);
  q->tools_version = glow_xstrdup(p->tools_version);
  q->has_hash = p->has_hash;
  q->graph_hash = p->graph_hash;
  q->entries = glow_xcalloc((size_t)(n + 1), sizeof *q->entries);
  glow_strbuf list = {0}, first = {0};
  for (int i = 0; i < n; i++) {
    glow_strbuf sought = {0};
    const glow_profile_entry *e = entry_for(&ix, g, ids[i], &sought);
    const char *name = g->vals[ids[i]].name;
    if (!e) {
      glow_sb_printf(&list, "\n  missing: %s:0 (sought: %s)", name, sought.s);
      missing++;
    } else {
      used += !is_used[e - p->entries];
      is_used[e - p->entries] = 1;
      glow_profile_entry *d = &q->entries[q->nentries++];
      d->name = glow_xmalloc(strlen(name) + 3);
      sprintf(d->name, "%s:0", name);
      exact_names += !strcmp(d->name, e->name);
      if (!first.s && strcmp(d->name, e->name))
        glow_sb_printf(&first, " (e.g. '%s' for '%s')", e->name, d->name);
      d->min = e->min;
      d->max = e->max;
      d->nbins = e->nbins;
      d->hist = glow_xmalloc(sizeof(double) * (size_t)(e->nbins ? e->nbins : 1));
      memcpy(d->hist, e->hist, sizeof(double) * (size_t)e->nbins);
    }
    glow_sb_free(&sought);
  }
  qsort(q->entries, (size_t)q->nentries, sizeof *q->entries, by_name);
  if (missing) {
    glow_error(path,
               "the profile, written by Glow (GlowToolsVersion '%s'), has no entry for %d of the %d values of the "
               "model %s: glowc looks for the Glow node that computes each one (see -help for -load-profile); was "
               "the profile made from another model?%s",
               p->tools_version, missing, n, g->file ? g->file : "", list.s);
    glow_profile_free(q);
    q = NULL;
  } else if (verbose) {
    glow_note("%s: written by Glow: %d values found under Glow's node names%s, %d under their own; %d of its "
              "%d entries (Glow's own nodes: transposes, splats, constants) not used\n",
              path, n - exact_names, first.s ? first.s : "", exact_names, p->nentries - used, p->nentries);
  }
  for (int i = 0; i < ix.nkeys; i++)
    free(ix.keys[i].base);
  free(ix.keys);
  free(ix.by_name);
  free(is_used);
  free(ids);
  glow_sb_free(&list);
  glow_sb_free(&first);
  return q;
}
