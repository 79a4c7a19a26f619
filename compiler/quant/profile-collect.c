/* The profiler: runs calibration samples through the reference interpreter
 * and keeps, per float value, its range and a histogram built the way Glow
 * builds it (lib/Quantization/Base/Profile.cpp), so the lead's calibration
 * (min/max or KL) reads the same numbers from a Glow profile and from ours. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quant/quant.h"

struct glow_profiler {
  const glow_graph *g;
  glow_profile prof;
  int *entry_of; /* per value id: its entry, or -1 */
  char *seen;    /* per entry: a finite number was seen */
  int samples;
  float *tmp;    /* a non-f32 value converted to float */
  size_t tmp_cap;
};

typedef struct {
  const char *name;
  int order, id;
} candidate;

static int by_name_then_order(const void *a, const void *b) {
  const candidate *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : x->order - y->order;
}

static int by_order(const void *a, const void *b) {
  return ((const candidate *)a)->order - ((const candidate *)b)->order;
}

void glow_profile_values(const glow_graph *g, int **ids, int *n) {
  candidate *c = glow_xmalloc(sizeof *c * (size_t)(g->nvals + 1));
  int nc = 0;
  for (int i = 0; i < g->ninputs; i++) {
    int id = g->inputs[i];
    if (glow_interp_observes(g, id) && *g->vals[id].name)
      c[nc] = (candidate){g->vals[id].name, nc, id}, nc++;
  }
  for (int i = 0; i < g->nnodes; i++) {
    const glow_node *nd = &g->nodes[i];
    for (int k = 0; !nd->dead && k < nd->nout; k++) {
      int id = nd->out[k];
      if (id >= 0 && glow_interp_observes(g, id) && *g->vals[id].name)
        c[nc] = (candidate){g->vals[id].name, nc, id}, nc++;
    }
  }
  /* The first value with a name keeps it. */
  qsort(c, (size_t)nc, sizeof *c, by_name_then_order);
  int kept = 0;
  for (int i = 0; i < nc; i++)
    if (!kept || strcmp(c[kept - 1].name, c[i].name))
      c[kept++] = c[i];
  qsort(c, (size_t)kept, sizeof *c, by_order);
  *ids = glow_xmalloc(sizeof **ids * (size_t)(kept + 1));
  for (int i = 0; i < kept; i++)
    (*ids)[i] = c[i].id;
  *n = kept;
  free(c);
}

static int by_entry_name(const void *a, const void *b) {
  return strcmp(((const glow_profile_entry *)a)->name, ((const glow_profile_entry *)b)->name);
}

glow_profiler *glow_profiler_create(const glow_graph *g, int nbins) {
  glow_profiler *pr = glow_xcalloc(1, sizeof *pr);
  nbins = nbins > 0 ? nbins : GLOW_PROFILE_BINS;
  pr->g = g;
  pr->prof.tools_version = glow_xstrdup("glowc " GLOWC_VERSION);
  pr->prof.has_hash = 1;
  pr->prof.graph_hash = glow_graph_hash(g);
  int *ids, n;
  glow_profile_values(g, &ids, &n);
  pr->prof.nentries = n;
  pr->prof.entries = glow_xcalloc((size_t)n + 1, sizeof *pr->prof.entries);
  for (int i = 0; i < n; i++) {
    glow_profile_entry *e = &pr->prof.entries[i];
    size_t len = strlen(g->vals[ids[i]].name) + 3;
    e->name = glow_xmalloc(len);
    snprintf(e->name, len, "%s:0", g->vals[ids[i]].name);
    e->nbins = nbins;
    e->hist = glow_xcalloc((size_t)nbins, sizeof *e->hist);
  }
  qsort(pr->prof.entries, (size_t)n, sizeof *pr->prof.entries, by_entry_name);
  /* Map value ids to the sorted entries through their (unique) names. */
  pr->entry_of = glow_xmalloc(sizeof *pr->entry_of * (size_t)(g->nvals + 1));
  for (int i = 0; i < g->nvals; i++)
    pr->entry_of[i] = -1;
  for (int i = 0; i < n; i++) {
    const glow_profile_entry *e = glow_profile_find(&pr->prof, g->vals[ids[i]].name);
    pr->entry_of[ids[i]] = (int)(e - pr->prof.entries);
  }
  pr->seen = glow_xcalloc((size_t)n + 1, 1);
  free(ids);
  return pr;
}

/* The bin of v in nb bins of `width` from lo; the last bin is closed. */
static int bin_of(double lo, double width, int nb, double v) {
  if (!(width > 0))
    return 0;
  double b = (v - lo) / width;
  if (!(b > 0))
    return 0;
  return b >= nb - 1 ? nb - 1 : (int)b;
}

/* The histogram over [lo, hi] spread over the wider [nlo, nhi]: new bins are
 * at least as wide as old ones, so an old bin overlaps one or two of them and
 * its count splits in proportion, rounded to whole counts. */
static void widen(double *hist, int nb, double lo, double hi, double nlo, double nhi) {
  double sw = (hi - lo) / nb, dw = (nhi - nlo) / nb;
  double *out = glow_xcalloc((size_t)nb, sizeof *out);
  for (int i = 0; i < nb; i++) {
    double c = hist[i];
    if (c == 0)
      continue;
    double start = lo + sw * i;
    int d = bin_of(nlo, dw, nb, start);
    double part = c;
    if (sw > 0) {
      part = round((nlo + dw * (d + 1) - start) / sw * c);
      part = part < 0 ? 0 : part > c ? c : part;
    }
    out[d] += part;
    if (part < c)
      out[bin_of(nlo, dw, nb, start + dw)] += c - part;
  }
  memcpy(hist, out, sizeof *out * (size_t)nb);
  free(out);
}

static void accumulate(glow_profile_entry *e, char *seen, const float *x, int64_t n) {
  float tmin = INFINITY, tmax = -INFINITY;
  for (int64_t i = 0; i < n; i++)
    if (isfinite(x[i])) {
      tmin = x[i] < tmin ? x[i] : tmin;
      tmax = x[i] > tmax ? x[i] : tmax;
    }
  if (tmin > tmax) /* nothing finite */
    return;
  if (!*seen) {
    e->min = tmin;
    e->max = tmax;
    *seen = 1;
  } else if (tmin < e->min || tmax > e->max) {
    float nmin = tmin < e->min ? tmin : e->min, nmax = tmax > e->max ? tmax : e->max;
    widen(e->hist, e->nbins, e->min, e->max, nmin, nmax);
    e->min = nmin;
    e->max = nmax;
  }
  double lo = e->min, width = ((double)e->max - lo) / e->nbins;
  for (int64_t i = 0; i < n; i++)
    if (isfinite(x[i]))
      e->hist[bin_of(lo, width, e->nbins, x[i])] += 1;
}

static void observe(void *ctx, const glow_graph *g, int id, const void *data) {
  glow_profiler *pr = ctx;
  int k = pr->entry_of[id];
  if (k < 0)
    return;
  const glow_value *v = &g->vals[id];
  int64_t n = glow_value_numel(v);
  const float *x = data;
  if (v->dt != GLOW_DT_F32) {
    if ((size_t)n > pr->tmp_cap) {
      pr->tmp_cap = (size_t)n;
      pr->tmp = glow_xrealloc(pr->tmp, sizeof *pr->tmp * pr->tmp_cap);
    }
    for (int64_t i = 0; i < n; i++)
      pr->tmp[i] = (float)glow_elem_get(v->dt, data, i);
    x = pr->tmp;
  }
  accumulate(&pr->prof.entries[k], &pr->seen[k], x, n);
}

int glow_profiler_run(glow_profiler *pr, const glow_tensor *inputs) {
  const glow_graph *g = pr->g;
  glow_tensor *outs = glow_xcalloc((size_t)g->noutputs + 1, sizeof *outs);
  int rc = glow_interp_run_observed(g, inputs, outs, observe, pr);
  for (int i = 0; i < g->noutputs && !rc; i++)
    free(outs[i].data);
  free(outs);
  pr->samples += !rc;
  return rc;
}

int glow_profiler_samples(const glow_profiler *pr) { return pr->samples; }

const glow_profile *glow_profiler_profile(const glow_profiler *pr) { return &pr->prof; }

void glow_profiler_free(glow_profiler *pr) {
  if (!pr)
    return;
  for (int i = 0; i < pr->prof.nentries; i++) {
    free(pr->prof.entries[i].name);
    free(pr->prof.entries[i].hist);
  }
  free(pr->prof.entries);
  free(pr->prof.tools_version);
  free(pr->entry_of);
  free(pr->seen);
  free(pr->tmp);
  free(pr);
}
