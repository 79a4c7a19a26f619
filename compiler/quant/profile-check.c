/* Does a profile fit a graph? Names first, with every mismatch listed; then
 * the graph hash, which only warns. */
#include <stdlib.h>
#include <string.h>

#include "quant/quant.h"

static void hash_bytes(glow_sha256_ctx *s, const void *p, size_t n) {
  uint64_t len = n; /* length-prefixed, so fields cannot run into each other */
  glow_sha256_update(s, &len, sizeof len);
  glow_sha256_update(s, p, n);
}

static void hash_str(glow_sha256_ctx *s, const char *str) { hash_bytes(s, str ? str : "", str ? strlen(str) : 0); }

static void hash_i64(glow_sha256_ctx *s, int64_t v) { glow_sha256_update(s, &v, sizeof v); }

static void hash_value(glow_sha256_ctx *s, const glow_graph *g, int id) {
  if (id < 0) {
    hash_i64(s, -1);
    return;
  }
  const glow_value *v = &g->vals[id];
  hash_str(s, v->name);
  hash_i64(s, v->dt);
  hash_i64(s, v->rank);
  hash_i64(s, v->kind);
  for (int d = 0; d < v->rank; d++)
    hash_i64(s, v->dims[d]);
  if (v->kind == GLOW_VAL_CONST)
    hash_bytes(s, v->data, v->data ? glow_value_bytes(v) : 0);
}

static void hash_attr(glow_sha256_ctx *s, const glow_graph *g, const glow_attr *a) {
  hash_str(s, a->name);
  hash_i64(s, a->type);
  hash_i64(s, a->i);
  glow_sha256_update(s, &a->f, sizeof a->f);
  hash_str(s, a->s);
  hash_i64(s, a->n);
  if (a->ints)
    hash_bytes(s, a->ints, sizeof *a->ints * (size_t)a->n);
  if (a->floats)
    hash_bytes(s, a->floats, sizeof *a->floats * (size_t)a->n);
  for (int k = 0; a->strings && k < a->n; k++)
    hash_str(s, a->strings[k]);
  if (a->type == GLOW_ATTR_TENSOR)
    hash_value(s, g, a->t_value);
}

uint64_t glow_graph_hash(const glow_graph *g) {
  glow_sha256_ctx s;
  glow_sha256_init(&s);
  hash_i64(&s, g->ninputs);
  for (int i = 0; i < g->ninputs; i++)
    hash_value(&s, g, g->inputs[i]);
  hash_i64(&s, g->noutputs);
  for (int i = 0; i < g->noutputs; i++)
    hash_value(&s, g, g->outputs[i]);
  for (int i = 0; i < g->nnodes; i++) {
    const glow_node *n = &g->nodes[i];
    if (n->dead)
      continue;
    hash_str(&s, glow_op_get(n->op)->onnx_name);
    hash_i64(&s, n->nattr);
    for (int a = 0; a < n->nattr; a++)
      hash_attr(&s, g, &n->attrs[a]);
    hash_i64(&s, n->nin);
    for (int k = 0; k < n->nin; k++)
      hash_value(&s, g, n->in[k]);
    hash_i64(&s, n->nout);
    for (int k = 0; k < n->nout; k++)
      hash_value(&s, g, n->out[k]);
  }
  unsigned char d[32];
  glow_sha256_final(&s, d);
  uint64_t h = 0;
  for (int i = 0; i < 8; i++)
    h = h << 8 | d[i];
  return h;
}

static const glow_profile_entry *find_name(const glow_profile *p, const char *name) {
  int lo = 0, hi = p->nentries;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2, c = strcmp(p->entries[mid].name, name);
    if (!c)
      return &p->entries[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

static char *output_name(const char *value_name) {
  size_t len = strlen(value_name) + 3;
  char *s = glow_xmalloc(len);
  snprintf(s, len, "%s:0", value_name);
  return s;
}

const glow_profile_entry *glow_profile_find(const glow_profile *p, const char *value_name) {
  char *key = output_name(value_name);
  const glow_profile_entry *e = find_name(p, key);
  free(key);
  return e;
}

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int glow_profile_check(const glow_profile *p, const glow_graph *g, const char *path) {
  int *ids, n;
  glow_profile_values(g, &ids, &n);
  /* Both name lists sorted, then merged: what only one side has is a mismatch. */
  char **want = glow_xmalloc(sizeof *want * (size_t)(n + 1));
  for (int i = 0; i < n; i++)
    want[i] = output_name(g->vals[ids[i]].name);
  qsort(want, (size_t)n, sizeof *want, by_string);
  glow_strbuf list = {0}, extra = {0};
  int missing = 0, unexpected = 0, i = 0, k = 0;
  while (i < n || k < p->nentries) {
    int c = i == n ? 1 : k == p->nentries ? -1 : strcmp(want[i], p->entries[k].name);
    if (c < 0) {
      glow_sb_printf(&list, "\n  missing:    %s", want[i++]);
      missing++;
    } else if (c > 0) {
      glow_sb_printf(&extra, "\n  unexpected: %s", p->entries[k++].name);
      unexpected++;
    } else {
      i++, k++;
    }
  }
  glow_sb_printf(&list, "%s", extra.s ? extra.s : "");
  int rc = 0;
  if (missing || unexpected) {
    glow_error(path,
               "the profile does not match the model %s: %d of its values %s no entry, %d %s no value of it "
               "(NodeOutputName is the ONNX value name and ':0'; was the profile made from another model, or with "
               "other -model-input, -onnx-define-symbol or -bind-input options?)%s",
               g->file ? g->file : "", missing, missing == 1 ? "has" : "have", unexpected,
               unexpected == 1 ? "entry names" : "entries name", list.s);
    rc = -1;
  } else if (p->has_hash && !strncmp(p->tools_version, "glowc ", 6) && p->graph_hash != glow_graph_hash(g)) {
    glow_warning(path,
                 "the profile's GraphPreLowerHash 0x%016llX is not the model's 0x%016llX: every value name matches, "
                 "but the model changed since it was profiled (weights, shapes or ops); the ranges may be stale",
                 (unsigned long long)p->graph_hash, (unsigned long long)glow_graph_hash(g));
  }
  for (int j = 0; j < n; j++)
    free(want[j]);
  free(want);
  free(ids);
  glow_sb_free(&list);
  glow_sb_free(&extra);
  return rc;
}
