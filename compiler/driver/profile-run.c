/* -dump-profile (model-profiler, model-compiler): the model through the
 * reference interpreter over every calibration sample, then the profile
 * written in one piece. Every dataset is listed and every rawbin file's size
 * checked before the first sample runs, so mistakes show up at once. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "driver/driver.h"
#include "quant/quant.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Each graph input gets exactly one dataset; every name must be an input. */
static int match_inputs(const glow_graph *g, glow_dataset *ds, int n, int *of_input) {
  int rc = 0;
  for (int i = 0; i < g->ninputs; i++)
    of_input[i] = -1;
  for (int k = 0; k < n; k++) {
    int i = 0;
    while (i < g->ninputs && strcmp(g->vals[g->inputs[i]].name, ds[k].input))
      i++;
    if (i == g->ninputs) {
      glow_strbuf names = {0};
      for (int j = 0; j < g->ninputs; j++)
        glow_sb_printf(&names, "%s'%s'", j ? ", " : "", g->vals[g->inputs[j]].name);
      int id = glow_value_find(g, ds[k].input), bound = id >= 0 && g->vals[id].kind == GLOW_VAL_CONST;
      glow_error("-input-dataset", "'%s': the model has no input named '%s'%s (its inputs: %s)", ds[k].spec,
                 ds[k].input, bound ? " (it is a constant or bound with -bind-input)" : "",
                 names.s ? names.s : "none");
      glow_sb_free(&names);
      rc = -1;
    } else if (of_input[i] >= 0) {
      glow_error("-input-dataset", "input '%s' has two datasets: '%s' and '%s'", ds[k].input, ds[of_input[i]].spec,
                 ds[k].spec);
      rc = -1;
    } else {
      of_input[i] = k;
    }
  }
  if (rc)
    return rc;
  glow_strbuf missing = {0};
  for (int i = 0; i < g->ninputs; i++)
    if (of_input[i] < 0)
      glow_sb_printf(&missing, "%s'%s'", missing.s ? ", " : "", g->vals[g->inputs[i]].name);
  if (missing.s) {
    glow_error("-input-dataset", "no dataset for the model input(s) %s: every input needs one (or a -bind-input)",
               missing.s);
    rc = -1;
  }
  glow_sb_free(&missing);
  return rc;
}

/* On a terminal, for runs longer than half a second: "profiling: 37/200 samples",
 * the cursor left at the start of the line so that an error message replaces it. */
typedef struct {
  int tty, shown;
  double start, last;
} progress;

static void progress_update(progress *p, int done, int total) {
  double t = now();
  if (!p->tty || t - p->start < 0.5 || (t - p->last < 0.1 && done < total))
    return;
  fprintf(stderr, "profiling: %d/%d samples\r", done, total);
  fflush(stderr);
  p->shown = 1;
  p->last = t;
}

static void progress_end(progress *p, int ok) {
  if (p->shown && ok)
    fputc('\n', stderr);
}

/* -input-dataset samples: the i-th file of every input's dataset. */
typedef struct {
  glow_dataset *ds;
  const int *of_input;
} dataset_samples;

static int dataset_read(void *ctx, int s, const glow_graph *g, glow_tensor *in) {
  dataset_samples *c = ctx;
  for (int i = 0; i < g->ninputs; i++)
    if (glow_dataset_read(&c->ds[c->of_input[i]], s, &g->vals[g->inputs[i]], in[i].data))
      return -1;
  return 0;
}

static void dataset_name(void *ctx, int s, const glow_graph *g, glow_strbuf *out) {
  dataset_samples *c = ctx;
  for (int i = 0; i < g->ninputs; i++)
    glow_sb_printf(out, "%s%s", i ? ", " : "", c->ds[c->of_input[i]].files[s]);
}

int glow_driver_profile_samples(const glow_driver_options *d, const glow_graph *g, const glow_sample_source *src) {
  glow_tensor *in = glow_xcalloc((size_t)g->ninputs + 1, sizeof *in);
  for (int i = 0; i < g->ninputs; i++) {
    const glow_value *v = &g->vals[g->inputs[i]];
    in[i] = (glow_tensor){v->dt, v->rank, {0}, glow_xcalloc(1, glow_value_bytes(v) + 1)};
    memcpy(in[i].dims, v->dims, sizeof in[i].dims);
  }
  glow_profiler *pr = glow_profiler_create(g, d->num_histogram_bins);
  progress pg = {isatty(2), 0, now(), 0};
  int rc = 0, nsamples = src->nsamples;
  for (int s = 0; s < nsamples && !rc; s++) {
    rc = src->read(src->ctx, s, g, in);
    if (!rc && glow_profiler_run(pr, in)) {
      glow_strbuf files = {0};
      src->name(src->ctx, s, g, &files);
      glow_error(d->model, "the interpreter failed on sample %d of %d (%s)", s + 1, nsamples, files.s ? files.s : "");
      glow_sb_free(&files);
      rc = -1;
    }
    progress_update(&pg, s + 1, nsamples);
  }
  progress_end(&pg, !rc);
  if (!rc)
    rc = glow_profile_save(glow_profiler_profile(pr), d->dump_profile);
  if (!rc && d->verbose)
    glow_note("glowc: profile of %d values over %d samples in %.3f s: %s\n", glow_profiler_profile(pr)->nentries,
              nsamples, now() - pg.start, d->dump_profile);
  glow_profiler_free(pr);
  for (int i = 0; i < g->ninputs; i++)
    free(in[i].data);
  free(in);
  return rc;
}

/* The profile's directory must take a file, or a long run would be lost at the end. */
int glow_driver_profile_check_output(const char *path) {
  const char *slash = strrchr(path, '/');
  char *dir = slash ? glow_xstrdup(path) : glow_xstrdup(".");
  if (slash)
    dir[slash == path ? 1 : slash - path] = 0;
  struct stat st;
  int rc = 0;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    glow_error(path, "cannot write the -dump-profile file: directory '%s' does not exist", dir);
    rc = -1;
  } else if (access(dir, W_OK) != 0) {
    glow_error(path, "cannot write the -dump-profile file: directory '%s' is not writable", dir);
    rc = -1;
  }
  free(dir);
  return rc;
}

int glow_driver_profile(const glow_driver_options *d) {
  glow_dataset *ds = glow_xcalloc((size_t)d->ndatasets + 1, sizeof *ds);
  int rc = glow_driver_profile_check_output(d->dump_profile);
  for (int k = 0; k < d->ndatasets; k++)
    rc |= glow_dataset_parse(d->datasets[k], &ds[k]);
  glow_graph *g = NULL;
  if (!rc && !(g = glow_import_model(d->model, d->init_net, &d->import)))
    rc = -1;
  for (int b = 0; !rc && b < d->nbind; b++)
    rc = glow_bind_input(g, d->bind[b]);
  if (!rc)
    rc = glow_run_passes(g, &d->passes, GLOW_PASS_GRAPH);
  int *of_input = g ? glow_xcalloc((size_t)g->ninputs + 1, sizeof *of_input) : NULL;
  if (!rc)
    rc = match_inputs(g, ds, d->ndatasets, of_input);
  /* Every dataset listed and sized before anything runs; all problems reported. */
  if (!rc)
    for (int k = 0; k < d->ndatasets; k++)
      rc |= glow_dataset_list(&ds[k]);
  if (!rc)
    for (int i = 0; i < g->ninputs; i++)
      rc |= glow_dataset_check_size(&ds[of_input[i]], &g->vals[g->inputs[i]]);
  for (int k = 1; !rc && k < d->ndatasets; k++)
    if (ds[k].nfiles != ds[0].nfiles) {
      glow_error("-input-dataset", "input '%s' has %d samples but input '%s' has %d (sample i takes the i-th file of "
                 "every input)", ds[0].input, ds[0].nfiles, ds[k].input, ds[k].nfiles);
      rc = -1;
    }
  if (!rc) {
    dataset_samples c = {ds, of_input};
    glow_sample_source src = {d->ndatasets ? ds[0].nfiles : 1, dataset_read, dataset_name, &c};
    rc = glow_driver_profile_samples(d, g, &src);
  }
  for (int k = 0; k < d->ndatasets; k++)
    glow_dataset_free(&ds[k]);
  free(ds);
  free(of_input);
  glow_graph_free(g);
  return rc;
}
