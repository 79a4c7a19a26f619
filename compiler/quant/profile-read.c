/* Reading profiles (Glow's schema, see quant.h) from libyaml's events, one at a
 * time: no document tree is built, so a value costs its 8 bytes, and YAML
 * aliases, which let a small file stand for gigabytes of histograms (1000
 * aliases of one entry of 10^5 counts are 10^8 values from 300 KB), are
 * refused as they come. Glow and glowc write none. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "quant/quant.h"

typedef struct {
  yaml_parser_t parser;
  yaml_event_t ev; /* the current event */
  int live;        /* ev is to be deleted */
  const char *path;
  glow_profile *p;
  int failed;      /* where and msg hold the first error, reported by glow_profile_parse */
  char where[4096], msg[1024];
} reader;

/* Notes the first error, at line (and column, when col) of `at`. @return -1 */
__attribute__((format(printf, 4, 5))) static int fail(reader *r, yaml_mark_t at, int col, const char *fmt, ...) {
  if (r->failed)
    return -1;
  r->failed = 1;
  if (col)
    snprintf(r->where, sizeof r->where, "%s:%lu:%lu", r->path, (unsigned long)at.line + 1, (unsigned long)at.column + 1);
  else
    snprintf(r->where, sizeof r->where, "%s:%lu", r->path, (unsigned long)at.line + 1);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->msg, sizeof r->msg, fmt, ap);
  va_end(ap);
  return -1;
}

#define bad(r, at, ...) fail(r, at, 0, __VA_ARGS__)

/* The next event into r->ev, or the YAML error noted (it replaces an error noted before: a file
 * that is not YAML is reported as such). @return -1 after a YAML error or an alias. */
static int next(reader *r) {
  if (r->live)
    yaml_event_delete(&r->ev);
  r->live = 0;
  if (!yaml_parser_parse(&r->parser, &r->ev)) {
    r->failed = 0;
    return fail(r, r->parser.problem_mark, 1, "not valid YAML: %s%s%s",
                r->parser.problem ? r->parser.problem : "parse error", r->parser.context ? " " : "",
                r->parser.context ? r->parser.context : "");
  }
  r->live = 1;
  if (r->ev.type == YAML_ALIAS_EVENT)
    return fail(r, r->ev.start_mark, 1, "alias '*%s': a profile may not use YAML aliases (glowc and Glow write "
                "none; an alias can make a small file stand for gigabytes of histograms)",
                (const char *)r->ev.data.alias.anchor);
  return 0;
}

static int is_scalar(const reader *r) { return r->ev.type == YAML_SCALAR_EVENT; }
static const char *text(const reader *r) { return (const char *)r->ev.data.scalar.value; }

/* Past the node whose first event is current, to its last event. */
static int skip(reader *r) {
  for (int depth = 0;;) {
    yaml_event_type_t t = r->ev.type;
    depth += t == YAML_MAPPING_START_EVENT || t == YAML_SEQUENCE_START_EVENT;
    depth -= t == YAML_MAPPING_END_EVENT || t == YAML_SEQUENCE_END_EVENT;
    if (!depth)
      return 0;
    if (next(r))
      return -1;
  }
}

/* A number that is finite as a float, all of the current scalar. */
static int read_number(reader *r, const char *what, double *v) {
  if (!is_scalar(r))
    return bad(r, r->ev.start_mark, "%s is not a number", what);
  char *end;
  *v = strtod(text(r), &end);
  if (end == text(r) || *end || !isfinite((float)*v))
    return bad(r, r->ev.start_mark, "%s is not a finite float", what);
  return 0;
}

/* The Histogram's counts, its sequence start current, into e->hist; a count
 * below zero is noted in *negative (reported once the entry's name is known). */
static int read_counts(reader *r, glow_profile_entry *e, int *negative, yaml_mark_t *negative_at) {
  size_t cap = 16;
  e->hist = glow_xmalloc(sizeof *e->hist * cap);
  for (;;) {
    if (next(r))
      return -1;
    if (r->ev.type == YAML_SEQUENCE_END_EVENT)
      return 0;
    if (e->nbins == GLOW_PROFILE_MAX_BINS)
      return bad(r, r->ev.start_mark, "a histogram has more than %d counts; glowc refuses it as it reads, to keep "
                 "its memory bounded (Glow and glowc write 2000)", GLOW_PROFILE_MAX_BINS);
    if ((size_t)e->nbins == cap)
      e->hist = glow_xrealloc(e->hist, sizeof *e->hist * (cap *= 2));
    double *c = &e->hist[e->nbins++];
    if (read_number(r, "a histogram count", c))
      return -1;
    if (*c < 0 && !*negative) {
      *negative = 1;
      *negative_at = r->ev.start_mark;
    }
  }
}

/* One entry {NodeOutputName, Min, Max, Histogram}, its first event current. */
static int read_entry(reader *r, glow_profile_entry *e) {
  yaml_mark_t at = r->ev.start_mark, hist_at = at, negative_at = at;
  if (r->ev.type != YAML_MAPPING_START_EVENT)
    return bad(r, at, "%s", "a profile entry is not a mapping {NodeOutputName, Min, Max, Histogram}");
  int have_name = 0, have_min = 0, have_max = 0, have_hist = 0, hist_not_seq = 0, negative = 0;
  double lo = 0, hi = 0;
  for (;;) {
    if (next(r))
      return -1;
    if (r->ev.type == YAML_MAPPING_END_EVENT)
      break;
    const char *k = is_scalar(r) ? text(r) : "?";
    int *have = !strcmp(k, "NodeOutputName") ? &have_name
                : !strcmp(k, "Min")          ? &have_min
                : !strcmp(k, "Max")          ? &have_max
                : !strcmp(k, "Histogram")    ? &have_hist
                                             : NULL;
    if (!have || !is_scalar(r))
      return bad(r, r->ev.start_mark, "unknown key '%s' in a profile entry (keys: NodeOutputName, Min, Max, Histogram)",
                 k);
    if (*have)
      return bad(r, r->ev.start_mark, "key '%s' given twice in a profile entry", k);
    *have = 1;
    if (next(r))
      return -1;
    if (have == &have_name) {
      if (!is_scalar(r) || !*text(r))
        return bad(r, r->ev.start_mark, "%s", "NodeOutputName is not a non-empty string");
      e->name = glow_xstrdup(text(r));
    } else if (have == &have_min || have == &have_max) {
      if (read_number(r, have == &have_min ? "Min" : "Max", have == &have_min ? &lo : &hi))
        return -1;
    } else {
      hist_at = r->ev.start_mark;
      hist_not_seq = r->ev.type != YAML_SEQUENCE_START_EVENT;
      if (hist_not_seq ? skip(r) : read_counts(r, e, &negative, &negative_at))
        return -1;
    }
  }
  if (!have_name || !have_min || !have_max || !have_hist)
    return bad(r, at, "a profile entry lacks %s",
               !have_name ? "NodeOutputName" : !have_min ? "Min" : !have_max ? "Max" : "Histogram");
  if (lo > hi)
    return bad(r, at, "Min is greater than Max for '%s'", e->name);
  if (hist_not_seq)
    return bad(r, hist_at, "the Histogram of '%s' is not a sequence of counts", e->name);
  if (negative)
    return bad(r, negative_at, "the histogram of '%s' has a negative count", e->name);
  e->min = (float)lo;
  e->max = (float)hi;
  if (!e->hist)
    e->hist = glow_xcalloc(1, sizeof *e->hist);
  return 0;
}

static int by_entry_name(const void *a, const void *b) {
  return strcmp(((const glow_profile_entry *)a)->name, ((const glow_profile_entry *)b)->name);
}

/* The entries, their sequence start current. */
static int read_entries(reader *r) {
  glow_profile *p = r->p;
  yaml_mark_t at = r->ev.start_mark;
  size_t cap = 0;
  for (;;) {
    if (next(r))
      return -1;
    if (r->ev.type == YAML_SEQUENCE_END_EVENT)
      break;
    if ((size_t)p->nentries == cap) {
      cap = cap ? cap * 2 : 64;
      p->entries = glow_xrealloc(p->entries, sizeof *p->entries * cap);
    }
    glow_profile_entry *e = &p->entries[p->nentries++]; /* counted first: glow_profile_free frees a half-read entry */
    memset(e, 0, sizeof *e);
    if (read_entry(r, e))
      return -1;
  }
  if (!p->entries)
    p->entries = glow_xcalloc(1, sizeof *p->entries);
  qsort(p->entries, (size_t)p->nentries, sizeof *p->entries, by_entry_name);
  for (int i = 1; i < p->nentries; i++)
    if (!strcmp(p->entries[i - 1].name, p->entries[i].name))
      return bad(r, at, "NodeOutputName '%s' appears twice", p->entries[i].name);
  return 0;
}

static const char not_profile[] = "not a Glow profile document (expected {GlowToolsVersion: ...}, "
                                  "{GraphPreLowerHash: ...}, then a sequence of {NodeOutputName, Min, Max, Histogram})";

/* {GlowToolsVersion: v} or {GraphPreLowerHash: h}, its mapping start current. */
static int read_single(reader *r) {
  glow_profile *p = r->p;
  yaml_mark_t at = r->ev.start_mark;
  if (next(r))
    return -1;
  int version = is_scalar(r) && !strcmp(text(r), "GlowToolsVersion");
  int hash = is_scalar(r) && !strcmp(text(r), "GraphPreLowerHash");
  if (!version && !hash)
    return bad(r, at, "%s", not_profile);
  if (next(r))
    return -1;
  if (!is_scalar(r) || (version && (p->tools_version || p->has_hash)) || (hash && p->has_hash))
    return bad(r, at, "%s", not_profile);
  if (version) {
    p->tools_version = glow_xstrdup(text(r));
  } else {
    char *end;
    errno = 0;
    unsigned long long h = strtoull(text(r), &end, 0);
    if (end == text(r) || *end || errno || *text(r) == '-')
      return bad(r, r->ev.start_mark, "GraphPreLowerHash '%s' is not a 64-bit number", text(r));
    p->graph_hash = h;
    p->has_hash = 1;
  }
  if (next(r))
    return -1;
  if (r->ev.type != YAML_MAPPING_END_EVENT) /* a second pair */
    return bad(r, at, "%s", not_profile);
  return 0;
}

/* One document, its start event current: {GlowToolsVersion}, {GraphPreLowerHash} or the entries. */
static int read_document(reader *r, int *have_entries) {
  if (next(r))
    return -1;
  yaml_mark_t at = r->ev.start_mark;
  int rc;
  if (*have_entries)
    rc = bad(r, at, "%s", "a document after the profile entries (expected GlowToolsVersion, GraphPreLowerHash, "
                          "then the entries)");
  else if (r->ev.type == YAML_SEQUENCE_START_EVENT)
    rc = read_entries(r), *have_entries = 1;
  else if (r->ev.type == YAML_MAPPING_START_EVENT)
    rc = read_single(r);
  else
    rc = bad(r, at, "%s", not_profile);
  return rc || next(r) ? -1 : 0; /* the document's end */
}

glow_profile *glow_profile_parse(const void *data, size_t size, const char *path) {
  reader r = {.path = path, .p = glow_xcalloc(1, sizeof(glow_profile))};
  GLOW_ASSERT(yaml_parser_initialize(&r.parser));
  yaml_parser_set_input_string(&r.parser, data, size);
  int rc = next(&r), have_entries = 0; /* the stream's start */
  while (!rc) {
    if (next(&r))
      rc = -1;
    else if (r.ev.type == YAML_STREAM_END_EVENT)
      break;
    else
      rc = read_document(&r, &have_entries);
  }
  /* After an error in the profile, the rest of the file: if it is not YAML, that is the error. */
  while (rc && r.live && r.ev.type != YAML_STREAM_END_EVENT && !next(&r))
    ;
  if (r.live)
    yaml_event_delete(&r.ev);
  yaml_parser_delete(&r.parser);
  glow_profile *p = r.p;
  if (rc)
    glow_error(r.where, "%s", r.msg);
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
