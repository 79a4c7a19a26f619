/* The model image-classifier runs: imported with its image input shaped by the images
 * (a Caffe2 net's shape comes from them; an ONNX model's must be theirs, its batch
 * aside), the graph passes run, quantized with -load-profile, and its image input and
 * labels output checked, each mismatch an error naming the image and what to do. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver/image-classifier.h"
#include "driver/option-table.h" /* glow_opt_model_input */

static void dims_str(const int64_t *dims, int rank, char *buf, size_t cap) {
  size_t n = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < rank && n < cap; i++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%lld", i ? "," : "", (long long)dims[i]);
  if (n < cap)
    snprintf(buf + n, cap - n, "]");
}

/* The image input's -model-input entry given the images' shape (added if there is none;
 * a bare -model-input-name entry gets it; one with a shape must agree). */
static int set_input_shape(glow_driver_options *d, const char *name, const int64_t dims[4]) {
  glow_import_options *o = &d->import;
  char shape[128];
  dims_str(dims, 4, shape, sizeof shape);
  int k = glow_model_input_find(o, name);
  if (k < 0) {
    char spec[512];
    snprintf(spec, sizeof spec, "%s,float,%s", name, shape);
    return glow_opt_model_input(d, spec);
  }
  if (glow_model_input_bare(o, k)) {
    o->input_types[k] = GLOW_DT_F32;
    o->input_ranks[k] = 4;
    memcpy(o->input_dims[k], dims, 4 * sizeof *dims);
    return 0;
  }
  if (o->input_types[k] != GLOW_DT_F32 || o->input_ranks[k] != 4 || memcmp(o->input_dims[k], dims, 4 * sizeof *dims)) {
    char given[128];
    dims_str(o->input_dims[k], o->input_ranks[k], given, sizeof given);
    glow_error("-model-input", "'%s' is given as %s%s, but the images make it float%s (image-classifier feeds float "
               "images; drop the -model-input or make it agree)", name, glow_dtype_name(o->input_types[k]), given,
               shape);
    return -1;
  }
  return 0;
}

/* The graph input the images feed: -model-input-name, or the model's only input. */
static int find_input(const glow_graph *g, const char *name, const char *model) {
  for (int i = 0; i < g->ninputs; i++)
    if (name ? !strcmp(g->vals[g->inputs[i]].name, name) : g->ninputs == 1)
      return i;
  glow_strbuf list = {0};
  for (int i = 0; i < g->ninputs; i++)
    glow_sb_printf(&list, "%s'%s'", i ? ", " : "", g->vals[g->inputs[i]].name);
  if (name)
    glow_error("-model-input-name", "the model has no input '%s' (its inputs: %s)", name, list.s ? list.s : "none");
  else
    glow_error(model, "the model has %d inputs (%s): name the one the images feed with -model-input-name=<name>",
               g->ninputs, list.s ? list.s : "none");
  glow_sb_free(&list);
  return -1;
}

/* The images' shape against the model input's: 1 if they agree, 0 if only the batch
 * differs, -1 after an error naming the first image. */
static int check_shape(const glow_value *v, const int64_t dims[4], const glow_image_prep *p, const char *image) {
  int cdim = p->nhwc ? 3 : 1;
  if (v->rank == 4 && !memcmp(v->dims + 1, dims + 1, 3 * sizeof *dims))
    return v->dims[0] == dims[0];
  char want[128], have[128];
  dims_str(dims, 4, want, sizeof want);
  glow_shape_str(v, have, sizeof have);
  const char *hint = "";
  char buf[200];
  if (v->rank != 4)
    hint = "; image-classifier feeds 4-D images, [N,C,H,W] or [N,H,W,C] (see -image-layout)";
  else if (v->dims[cdim] == 3 && dims[cdim] == 1)
    hint = "; the model takes colour images (3 channels): convert the image to RGB";
  else if (v->dims[cdim] == 1 && dims[cdim] == 3)
    hint = "; the model takes grey images (1 channel): convert the image to greyscale";
  else if (v->dims[p->nhwc ? 1 : 3] == dims[cdim] && v->dims[p->nhwc ? 2 : 1] == dims[p->nhwc ? 1 : 2] &&
           v->dims[p->nhwc ? 3 : 2] == dims[p->nhwc ? 2 : 3])
    hint = p->nhwc ? "; the model is NCHW: drop -image-layout=NHWC" : "; the model is NHWC: pass -image-layout=NHWC";
  else {
    int64_t h = v->dims[p->nhwc ? 1 : 2], w = v->dims[p->nhwc ? 2 : 3];
    snprintf(buf, sizeof buf, "; the model takes %lldx%lld images (width x height): resize the image", (long long)w,
             (long long)h);
    hint = buf;
  }
  glow_error(image, "the image (%lldx%lld, %s) makes the input '%s' float%s (%s), but the model's is %s%s",
             (long long)dims[p->nhwc ? 2 : 3], (long long)dims[p->nhwc ? 1 : 2],
             dims[cdim] == 1 ? "grey" : "colour", v->name, want, p->nhwc ? "NHWC" : "NCHW", have, hint);
  return -1;
}

/* The input the images feed as the command line names it: -model-input-name, or the one
 * -model-input (Glow's -model-input-name is its alias); NULL if neither names one. */
static const char *input_name(const glow_driver_options *d) {
  return d->model_input_name ? d->model_input_name : d->import.ninputs == 1 ? d->import.input_names[0] : NULL;
}

/* Imports the model, its image input shaped [N,C,H,W] as dims says (NHWC: [N,H,W,C]). */
static glow_graph *import(glow_driver_options *d, const int64_t dims[4], const glow_image_prep *p,
                          const char *image, int *caffe2) {
  char *pred = NULL, *init = NULL;
  *caffe2 = glow_caffe2_paths(d->model, d->init_net, &pred, &init);
  free(pred);
  free(init);
  const char *name = input_name(d);
  if (*caffe2) { /* no shapes in the net: the images give them */
    if (!name) {
      glow_error("-model-input-name", "a Caffe2 net does not say which input takes the images: pass "
                                      "-model-input-name=<name> (e.g. data or gpu_0/data)");
      return NULL;
    }
    return set_input_shape(d, name, dims) ? NULL : glow_import_model(d->model, d->init_net, &d->import);
  }
  /* ONNX: the model's own shape first (quietly: a failure is reported by the second import). */
  int was = glow_set_quiet(1);
  glow_graph *g = glow_import_model(d->model, d->init_net, &d->import);
  glow_set_quiet(was);
  if (g) {
    int k = find_input(g, name, d->model);
    int same = k < 0 ? -1 : check_shape(&g->vals[g->inputs[k]], dims, p, image);
    if (same)
      return same > 0 ? g : (glow_graph_free(g), NULL);
    /* Only the batch differs: -minibatch's batch instead of the model's. */
    int rc = set_input_shape(d, g->vals[g->inputs[k]].name, dims);
    glow_graph_free(g);
    if (rc)
      return NULL;
  } else if (name && set_input_shape(d, name, dims)) {
    return NULL;
  }
  return glow_import_model(d->model, d->init_net, &d->import);
}

/* The output whose labels are printed: -output-name, or the only one. */
static int find_output(const glow_graph *g, const char *name, const char *model) {
  for (int i = 0; i < g->noutputs; i++)
    if (name ? !strcmp(g->vals[g->outputs[i]].name, name) : g->noutputs == 1)
      return i;
  glow_strbuf list = {0};
  for (int i = 0; i < g->noutputs; i++)
    glow_sb_printf(&list, "%s'%s'", i ? ", " : "", g->vals[g->outputs[i]].name);
  if (name)
    glow_error("-output-name", "the model has no output '%s' (its outputs: %s)", name, list.s ? list.s : "none");
  else
    glow_error(model, "the model has %d outputs (%s): pick the one with the labels with -output-name=<name>",
               g->noutputs, list.s ? list.s : "none");
  glow_sb_free(&list);
  return -1;
}

/* Glow's output: [batch, ...] with one other dimension above 1, the labels. */
static int check_output(const glow_value *v, int64_t batch, const char *model, int64_t *nlabels) {
  char s[128];
  glow_shape_str(v, s, sizeof s);
  int ldim = 0, many = 0;
  for (int i = 1; i < v->rank; i++)
    if (v->dims[i] > 1)
      many |= ldim != 0, ldim = i;
  if (v->dt != GLOW_DT_F32 && v->dt != GLOW_DT_F16 && v->dt != GLOW_DT_BF16 && v->dt != GLOW_DT_F64) {
    glow_error(model, "output '%s' is %s: image-classifier reads scores from a float output", v->name, s);
    return -1;
  }
  if (v->rank < 2 || v->dims[0] != batch || !ldim || many) {
    glow_error(model, "output '%s' is %s: image-classifier reads [batch (%lld), labels] (other dimensions 1)", v->name,
               s, (long long)batch);
    return -1;
  }
  *nlabels = v->dims[ldim];
  return 0;
}

int glow_classify_model(glow_classify *c) {
  glow_driver_options *d = c->d;
  int64_t dims[4];
  glow_image_prep_shape(&c->prep, &c->first, c->batch, dims);
  int caffe2;
  glow_graph *g = import(d, dims, &c->prep, c->images[0], &caffe2);
  if (g && glow_run_passes(g, &d->passes, GLOW_PASS_GRAPH)) {
    glow_graph_free(g);
    g = NULL;
  }
  if (!g && caffe2 && input_name(d)) { /* the input's shape came from the images: say which */
    char shape[128];
    dims_str(dims, 4, shape, sizeof shape);
    glow_error(c->images[0], "the Caffe2 net was given its input '%s' as float%s (%s, %s images): see the error "
               "above", input_name(d), shape, c->prep.nhwc ? "NHWC" : "NCHW",
               c->first.c == 1 ? "grey" : "colour");
  }
  if (!g || glow_run_passes(g, &d->passes, GLOW_PASS_QUANT)) { /* -load-profile: quantized */
    glow_graph_free(g);
    return -1;
  }
  c->g = g;
  if ((c->input = find_input(g, input_name(d), d->model)) < 0)
    return -1;
  const glow_value *v = &g->vals[g->inputs[c->input]];
  if (g->ninputs > 1) {
    glow_error(d->model, "the model has %d inputs: image-classifier feeds one, the images ('%s')", g->ninputs, v->name);
    return -1;
  }
  if (v->dt != GLOW_DT_F32 && v->dt != GLOW_DT_F16 && v->dt != GLOW_DT_BF16 && v->dt != GLOW_DT_F64) {
    glow_error(d->model, "input '%s' is %s: image-classifier feeds float images", v->name, glow_dtype_name(v->dt));
    return -1;
  }
  if (d->dump_profile || (!d->topk && !d->nexpected))
    return 0;
  if ((c->output = find_output(g, d->output_name, d->model)) < 0 ||
      check_output(&g->vals[g->outputs[c->output]], c->batch, d->model, &c->nlabels))
    return -1;
  if (d->topk > c->nlabels) {
    glow_error("-topk", "%d labels asked for, but output '%s' has %lld", d->topk, g->vals[g->outputs[c->output]].name,
               (long long)c->nlabels);
    return -1;
  }
  return 0;
}

/* Glow prints the model's folder: -model's when it is one, else the first file's (or "."). */
void glow_classify_print_model(FILE *f, const glow_driver_options *d) {
  struct stat st;
  if (!d->init_net && stat(d->model, &st) == 0 && S_ISDIR(st.st_mode)) {
    fprintf(f, "Model: %s\n", d->model);
    return;
  }
  const char *slash = strrchr(d->model, '/');
  if (slash)
    fprintf(f, "Model: %.*s\n", (int)(slash - d->model), d->model);
  else
    fputs("Model: .\n", f);
}
