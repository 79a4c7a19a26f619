/* image-classifier's runs: each batch of images decoded, preprocessed into the model's
 * input and run in the reference interpreter; then each image's top labels printed as
 * Glow prints them, or, with -dump-profile, the batches profiled (driver/profile-run.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver/image-classifier.h"

/* Batch s into in (the image input's type and size). */
static int read_batch(void *ctx, int s, const glow_graph *g, glow_tensor *in) {
  glow_classify *c = ctx;
  const glow_value *v = &g->vals[g->inputs[c->input]];
  int64_t per = glow_value_numel(v) / c->batch;
  float *f = v->dt == GLOW_DT_F32 ? in->data : glow_xmalloc(sizeof *f * (size_t)per);
  int rc = 0;
  for (int i = 0; i < c->batch && !rc; i++) {
    const char *path = c->images[s * c->batch + i];
    glow_image img;
    if (glow_png_read(path, &img)) {
      rc = -1;
      break;
    }
    if (img.h != c->first.h || img.w != c->first.w || img.c != c->first.c) { /* changed since it was listed */
      glow_error(path, "the image changed while image-classifier ran (now %lldx%lld, %d channels)", (long long)img.w,
                 (long long)img.h, img.c);
      rc = -1;
    } else if (v->dt == GLOW_DT_F32) {
      glow_image_prep_run(&c->prep, &img, f + i * per);
    } else { /* float16, bfloat16, double inputs */
      glow_image_prep_run(&c->prep, &img, f);
      for (int64_t e = 0; e < per; e++)
        glow_elem_set(v->dt, in->data, i * per + e, f[e]);
    }
    glow_image_free(&img);
  }
  if (v->dt != GLOW_DT_F32)
    free(f);
  return rc;
}

static void name_batch(void *ctx, int s, const glow_graph *g, glow_strbuf *out) {
  glow_classify *c = ctx;
  (void)g;
  for (int i = 0; i < c->batch; i++)
    glow_sb_printf(out, "%s%s", i ? ", " : "", c->images[s * c->batch + i]);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Glow's -compute-softmax, in float as it computes it. */
static void softmax(float *x, int64_t n) {
  float sum = 0;
  for (int64_t i = 0; i < n; i++)
    sum += expf(x[i]);
  for (int64_t i = 0; i < n; i++)
    x[i] = expf(x[i]) / sum;
}

/* The labels of image i of the batch in out; returns 1 if -expected-labels misses. */
static int print_image(glow_classify *c, const glow_tensor *out, int i, int index, glow_label *top, float *scores) {
  const glow_driver_options *d = c->d;
  for (int64_t l = 0; l < c->nlabels; l++)
    scores[l] = (float)glow_elem_get(out->dt, out->data, i * c->nlabels + l);
  if (d->compute_softmax)
    softmax(scores, c->nlabels);
  if (!d->topk)
    return 0;
  const char *file = c->images[index];
  glow_top_k(scores, c->nlabels, d->topk, top);
  glow_print_labels(stdout, file, top, d->topk, d->label_offset);
  if (!d->nexpected)
    return 0;
  int want = d->expected[index];
  for (int k = 0; k < d->topk; k++)
    if (top[k].index - d->label_offset == want)
      return 0;
  printf(" File: %s doesn't match index: %d in the top %d pairs\n", file, want, d->topk);
  return 1;
}

int glow_classify_run(glow_classify *c) {
  const glow_graph *g = c->g;
  int nbatches = c->nimages / c->batch;
  glow_sample_source src = {nbatches, read_batch, name_batch, c};
  glow_classify_print_model(stdout, c->d);
  fputs("Running 1 thread(s).\n", stdout);
  if (c->d->dump_profile) {
    int rc = glow_driver_profile_samples(c->d, g, &src);
    fflush(stdout);
    return rc;
  }
  const glow_value *v = &g->vals[g->inputs[c->input]];
  glow_tensor in = {v->dt, v->rank, {0}, glow_xcalloc(1, glow_value_bytes(v) + 1)};
  memcpy(in.dims, v->dims, sizeof in.dims);
  glow_tensor *outs = glow_xcalloc((size_t)g->noutputs + 1, sizeof *outs);
  glow_label *top = glow_xcalloc((size_t)c->d->topk + 1, sizeof *top);
  float *scores = glow_xcalloc((size_t)c->nlabels + 1, sizeof *scores);
  int misses = 0, rc = 0;
  double t0 = now();
  for (int s = 0; s < nbatches && !rc; s++) {
    rc = read_batch(c, s, g, &in);
    if (!rc && glow_interp_run(g, &in, outs)) {
      glow_strbuf files = {0};
      name_batch(c, s, g, &files);
      glow_error(c->d->model, "the interpreter failed on images %s", files.s);
      glow_sb_free(&files);
      rc = -1;
    }
    for (int i = 0; !rc && c->nlabels && i < c->batch; i++)
      misses += print_image(c, &outs[c->output], i, s * c->batch + i, top, scores);
    for (int o = 0; o < g->noutputs; o++) {
      free(outs[o].data);
      outs[o].data = NULL;
    }
  }
  fflush(stdout);
  if (!rc && c->d->verbose)
    glow_note("glowc: %d images in %d runs of the reference interpreter: %.3f s\n", c->nimages, nbatches, now() - t0);
  free(in.data);
  free(outs);
  free(top);
  free(scores);
  return rc ? -1 : misses;
}
