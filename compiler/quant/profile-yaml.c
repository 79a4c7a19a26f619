/* Profiles as YAML through libyaml, in Glow's schema (see quant.h): written
 * deterministically, read from glowc's files and Glow's alike. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "quant/quant.h"

/* ---- writing ---- */

static int sb_write(void *data, unsigned char *buf, size_t size) {
  glow_sb_printf(data, "%.*s", (int)size, (const char *)buf);
  return 1;
}

static int emit(yaml_emitter_t *em, yaml_event_t *ev, int ok) {
  return ok && yaml_emitter_emit(em, ev);
}

static int scalar(yaml_emitter_t *em, const char *s, yaml_scalar_style_t style) {
  yaml_event_t ev;
  return emit(em, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1, style));
}

static int number(yaml_emitter_t *em, const char *fmt, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  return scalar(em, buf, YAML_PLAIN_SCALAR_STYLE);
}

static int mapping(yaml_emitter_t *em, int start) {
  yaml_event_t ev;
  return start ? emit(em, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE))
               : emit(em, &ev, yaml_mapping_end_event_initialize(&ev));
}

static int sequence(yaml_emitter_t *em, int start, yaml_sequence_style_t style) {
  yaml_event_t ev;
  return start ? emit(em, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, style))
               : emit(em, &ev, yaml_sequence_end_event_initialize(&ev));
}

static int document(yaml_emitter_t *em, int start) {
  yaml_event_t ev;
  return start ? emit(em, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0))
               : emit(em, &ev, yaml_document_end_event_initialize(&ev, 0));
}

/* One mapping document {key: value}. */
static int single(yaml_emitter_t *em, const char *key, const char *value) {
  return document(em, 1) && mapping(em, 1) && scalar(em, key, YAML_PLAIN_SCALAR_STYLE) &&
         scalar(em, value, YAML_ANY_SCALAR_STYLE) && mapping(em, 0) && document(em, 0);
}

static int entry(yaml_emitter_t *em, const glow_profile_entry *e) {
  /* Names are always quoted: "12:0" would read as a base-60 number in YAML 1.1. */
  int ok = mapping(em, 1) && scalar(em, "NodeOutputName", YAML_PLAIN_SCALAR_STYLE) &&
           scalar(em, e->name, YAML_SINGLE_QUOTED_SCALAR_STYLE) && scalar(em, "Min", YAML_PLAIN_SCALAR_STYLE) &&
           number(em, "%.9g", e->min) && scalar(em, "Max", YAML_PLAIN_SCALAR_STYLE) &&
           number(em, "%.9g", e->max) && scalar(em, "Histogram", YAML_PLAIN_SCALAR_STYLE) &&
           sequence(em, 1, YAML_FLOW_SEQUENCE_STYLE);
  for (int i = 0; ok && i < e->nbins; i++)
    ok = number(em, e->hist[i] == floor(e->hist[i]) ? "%.0f" : "%.9g", e->hist[i]);
  return ok && sequence(em, 0, 0) && mapping(em, 0);
}

int glow_profile_emit(const glow_profile *p, glow_strbuf *out) {
  yaml_emitter_t em;
  yaml_event_t ev;
  GLOW_ASSERT(yaml_emitter_initialize(&em));
  yaml_emitter_set_output(&em, sb_write, out);
  yaml_emitter_set_unicode(&em, 1);
  yaml_emitter_set_break(&em, YAML_LN_BREAK);
  char hash[32];
  snprintf(hash, sizeof hash, "0x%016" PRIX64, p->graph_hash);
  int ok = emit(&em, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING)) &&
           single(&em, "GlowToolsVersion", p->tools_version ? p->tools_version : "") &&
           (!p->has_hash || single(&em, "GraphPreLowerHash", hash)) && document(&em, 1) &&
           sequence(&em, 1, YAML_BLOCK_SEQUENCE_STYLE);
  for (int i = 0; ok && i < p->nentries; i++)
    ok = entry(&em, &p->entries[i]);
  ok = ok && sequence(&em, 0, 0) && document(&em, 0) && emit(&em, &ev, yaml_stream_end_event_initialize(&ev));
  if (!ok)
    glow_error(NULL, "cannot write the profile as YAML: %s", em.problem ? em.problem : "libyaml failed");
  yaml_emitter_delete(&em);
  return ok ? 0 : -1;
}

int glow_profile_save(const glow_profile *p, const char *path) {
  glow_strbuf b = {0};
  int rc = glow_profile_emit(p, &b);
  if (!rc) {
    glow_outset *os = glow_outset_create();
    rc = glow_outset_write(os, path, b.s, b.len) || glow_outset_commit(os) ? -1 : 0;
    glow_outset_free(os);
  }
  glow_sb_free(&b);
  return rc;
}

/* ---- reading ---- */

typedef struct {
  yaml_document_t *doc;
  const char *path;
  glow_profile *p;
} reader;

static int bad(const reader *r, const yaml_node_t *n, const char *fmt, const char *arg) {
  char where[4096], msg[512];
  snprintf(where, sizeof where, "%s:%lu", r->path, (unsigned long)n->start_mark.line + 1);
  snprintf(msg, sizeof msg, fmt, arg);
  glow_error(where, "%s", msg);
  return -1;
}

static const char *text(const yaml_node_t *n) { return (const char *)n->data.scalar.value; }

static int is_key(const yaml_node_t *n, const char *key) {
  return n->type == YAML_SCALAR_NODE && !strcmp(text(n), key);
}

static yaml_node_t *node(const reader *r, int id) { return yaml_document_get_node(r->doc, id); }

/* A number that is finite as a float, all of the scalar. */
static int read_number(const reader *r, const yaml_node_t *n, const char *what, double *v) {
  if (n->type != YAML_SCALAR_NODE)
    return bad(r, n, "%s is not a number", what);
  char *end;
  *v = strtod(text(n), &end);
  if (end == text(n) || *end || !isfinite((float)*v))
    return bad(r, n, "%s is not a finite float", what);
  return 0;
}

static int read_entry(const reader *r, const yaml_node_t *m, glow_profile_entry *e) {
  if (m->type != YAML_MAPPING_NODE)
    return bad(r, m, "%s", "a profile entry is not a mapping {NodeOutputName, Min, Max, Histogram}");
  const yaml_node_t *name = NULL, *min = NULL, *max = NULL, *hist = NULL;
  for (yaml_node_pair_t *kv = m->data.mapping.pairs.start; kv < m->data.mapping.pairs.top; kv++) {
    const yaml_node_t *k = node(r, kv->key), *v = node(r, kv->value);
    const yaml_node_t **slot = is_key(k, "NodeOutputName") ? &name
                               : is_key(k, "Min")          ? &min
                               : is_key(k, "Max")          ? &max
                               : is_key(k, "Histogram")    ? &hist
                                                           : NULL;
    if (!slot)
      return bad(r, k, "unknown key '%s' in a profile entry (keys: NodeOutputName, Min, Max, Histogram)",
                 k->type == YAML_SCALAR_NODE ? text(k) : "?");
    if (*slot)
      return bad(r, k, "key '%s' given twice in a profile entry", text(k));
    *slot = v;
  }
  if (!name || !min || !max || !hist)
    return bad(r, m, "a profile entry lacks %s", !name ? "NodeOutputName" : !min ? "Min" : !max ? "Max" : "Histogram");
  if (name->type != YAML_SCALAR_NODE || !*text(name))
    return bad(r, name, "%s", "NodeOutputName is not a non-empty string");
  double lo = 0, hi = 0; /* set by read_number (gcc -O3 cannot tell) */
  if (read_number(r, min, "Min", &lo) || read_number(r, max, "Max", &hi))
    return -1;
  if (lo > hi)
    return bad(r, m, "Min is greater than Max for '%s'", text(name));
  if (hist->type != YAML_SEQUENCE_NODE)
    return bad(r, hist, "the Histogram of '%s' is not a sequence of counts", text(name));
  e->name = glow_xstrdup(text(name));
  e->min = (float)lo;
  e->max = (float)hi;
  e->nbins = (int)(hist->data.sequence.items.top - hist->data.sequence.items.start);
  e->hist = glow_xcalloc((size_t)e->nbins + 1, sizeof *e->hist);
  for (int i = 0; i < e->nbins; i++) {
    const yaml_node_t *c = node(r, hist->data.sequence.items.start[i]);
    if (read_number(r, c, "a histogram count", &e->hist[i]))
      return -1;
    if (e->hist[i] < 0)
      return bad(r, c, "the histogram of '%s' has a negative count", e->name);
  }
  return 0;
}

static int by_entry_name(const void *a, const void *b) {
  return strcmp(((const glow_profile_entry *)a)->name, ((const glow_profile_entry *)b)->name);
}

static int read_entries(const reader *r, const yaml_node_t *seq) {
  glow_profile *p = r->p;
  int n = (int)(seq->data.sequence.items.top - seq->data.sequence.items.start);
  p->entries = glow_xcalloc((size_t)n + 1, sizeof *p->entries);
  for (int i = 0; i < n; i++) {
    p->nentries++; /* counted first: glow_profile_free frees a half-read entry */
    if (read_entry(r, node(r, seq->data.sequence.items.start[i]), &p->entries[i]))
      return -1;
  }
  qsort(p->entries, (size_t)n, sizeof *p->entries, by_entry_name);
  for (int i = 1; i < n; i++)
    if (!strcmp(p->entries[i - 1].name, p->entries[i].name))
      return bad(r, seq, "NodeOutputName '%s' appears twice", p->entries[i].name);
  return 0;
}

/* One document: {GlowToolsVersion}, {GraphPreLowerHash} or the entries. */
static int read_document(reader *r, const yaml_node_t *root, int *have_entries) {
  glow_profile *p = r->p;
  if (*have_entries)
    return bad(r, root, "%s", "a document after the profile entries (expected GlowToolsVersion, GraphPreLowerHash, "
                              "then the entries)");
  if (root->type == YAML_SEQUENCE_NODE) {
    *have_entries = 1;
    return read_entries(r, root);
  }
  int npairs = root->type == YAML_MAPPING_NODE ? (int)(root->data.mapping.pairs.top - root->data.mapping.pairs.start) : 0;
  const yaml_node_t *k = npairs == 1 ? node(r, root->data.mapping.pairs.start[0].key) : NULL;
  const yaml_node_t *v = npairs == 1 ? node(r, root->data.mapping.pairs.start[0].value) : NULL;
  if (k && is_key(k, "GlowToolsVersion") && v->type == YAML_SCALAR_NODE && !p->tools_version && !p->has_hash) {
    p->tools_version = glow_xstrdup(text(v));
    return 0;
  }
  if (k && is_key(k, "GraphPreLowerHash") && v->type == YAML_SCALAR_NODE && !p->has_hash) {
    char *end;
    errno = 0;
    unsigned long long h = strtoull(text(v), &end, 0);
    if (end == text(v) || *end || errno || *text(v) == '-')
      return bad(r, v, "GraphPreLowerHash '%s' is not a 64-bit number", text(v));
    p->graph_hash = h;
    p->has_hash = 1;
    return 0;
  }
  return bad(r, root, "%s", "not a Glow profile document (expected {GlowToolsVersion: ...}, "
                            "{GraphPreLowerHash: ...}, then a sequence of {NodeOutputName, Min, Max, Histogram})");
}

glow_profile *glow_profile_parse(const void *data, size_t size, const char *path) {
  if (glow_profile_check_limits(data, size, path))
    return NULL;
  yaml_parser_t parser;
  GLOW_ASSERT(yaml_parser_initialize(&parser));
  yaml_parser_set_input_string(&parser, data, size);
  glow_profile *p = glow_xcalloc(1, sizeof *p);
  reader r = {NULL, path, p};
  int rc = 0, have_entries = 0;
  for (;;) {
    yaml_document_t doc;
    if (!yaml_parser_load(&parser, &doc)) {
      char where[4096];
      snprintf(where, sizeof where, "%s:%lu:%lu", path, (unsigned long)parser.problem_mark.line + 1,
               (unsigned long)parser.problem_mark.column + 1);
      glow_error(where, "not valid YAML: %s%s%s", parser.problem ? parser.problem : "parse error",
                 parser.context ? " " : "", parser.context ? parser.context : "");
      rc = -1;
      break;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root) {
      r.doc = &doc;
      rc = read_document(&r, root, &have_entries);
    }
    yaml_document_delete(&doc);
    if (!root || rc)
      break;
  }
  yaml_parser_delete(&parser);
  if (!rc && !have_entries) {
    glow_error(path, "not a Glow profile: no sequence of {NodeOutputName, Min, Max, Histogram} entries");
    rc = -1;
  }
  if (rc) {
    glow_profile_free(p);
    return NULL;
  }
  if (!p->tools_version)
    p->tools_version = glow_xstrdup("");
  return p;
}

glow_profile *glow_profile_load(const char *path) {
  uint8_t *data;
  size_t size;
  if (glow_read_file(path, &data, &size))
    return NULL;
  glow_profile *p = glow_profile_parse(data, size, path);
  free(data);
  return p;
}

void glow_profile_free(glow_profile *p) {
  if (!p)
    return;
  for (int i = 0; i < p->nentries; i++) {
    free(p->entries[i].name);
    free(p->entries[i].hist);
  }
  free(p->entries);
  free(p->tools_version);
  free(p);
}
