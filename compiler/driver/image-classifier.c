/* image-classifier: Glow's tool. PNG images through a model in glowc's reference
 * interpreter, each image's top labels printed as Glow prints them; or, with
 * -dump-profile, the images as calibration samples of a quantization profile. Every
 * image is checked (a PNG, one size, the model's) before the model runs. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver/image-classifier.h"

typedef struct {
  int n;
  char **paths;
} path_list;

static void add_path(path_list *l, char *p) {
  l->paths = glow_xrealloc(l->paths, sizeof *l->paths * (size_t)(l->n + 1));
  l->paths[l->n++] = p;
}

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* -input-image-dir: its regular files not starting with '.', in strcmp order. */
static int list_dir(path_list *l, const char *dir) {
  DIR *dp = opendir(dir);
  if (!dp) {
    glow_error(dir, "cannot read the -input-image-dir folder: %s", strerror(errno));
    return -1;
  }
  int first = l->n;
  struct dirent *e;
  while ((e = readdir(dp))) {
    if (e->d_name[0] == '.')
      continue;
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    char *p = glow_xmalloc(len);
    snprintf(p, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
      add_path(l, p);
    else
      free(p);
  }
  closedir(dp);
  if (l->n == first) {
    glow_error(dir, "the -input-image-dir folder holds no files");
    return -1;
  }
  qsort(l->paths + first, (size_t)(l->n - first), sizeof *l->paths, by_string);
  return 0;
}

/* -input-image-list-file: a path a line (Glow's form); empty lines skipped. */
static int list_file(path_list *l, const char *file) {
  FILE *f = fopen(file, "r");
  if (!f) {
    glow_error(file, "cannot read the -input-image-list-file: %s", strerror(errno));
    return -1;
  }
  int first = l->n;
  char line[8192];
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    if (*line)
      add_path(l, glow_xstrdup(line));
  }
  fclose(f);
  if (l->n == first) {
    glow_error(file, "the -input-image-list-file names no images");
    return -1;
  }
  return 0;
}

static int list_images(const glow_driver_options *d, path_list *l) {
  for (int i = 0; i < d->nimages; i++)
    add_path(l, glow_xstrdup(d->images[i]));
  if (d->input_image_dir && list_dir(l, d->input_image_dir))
    return -1;
  if (d->image_list && list_file(l, d->image_list))
    return -1;
  if (!l->n) {
    glow_error(NULL, "no images: list PNG files on the command line, or give -input-image-dir=<dir> (see -help)");
    return -1;
  }
  return 0;
}

/* Every image a whole PNG (decoded, so that a file cut short fails before anything runs)
 * of the first one's size and channels, -mean/-stddev fitting them; all problems reported. */
static int check_images(glow_classify *c) {
  int rc = glow_png_read(c->images[0], &c->first);
  glow_image_free(&c->first);
  if (!rc)
    rc = glow_image_prep_check(&c->prep, &c->first);
  for (int i = 1; i < c->nimages; i++) {
    glow_image img;
    if (glow_png_read(c->images[i], &img)) {
      rc = -1;
    } else if (!rc && (img.h != c->first.h || img.w != c->first.w || img.c != c->first.c)) {
      glow_error(c->images[i], "the image is %lldx%lld %s, but %s is %lldx%lld %s: every image must have the same "
                 "size and channels (the model's input)", (long long)img.w, (long long)img.h,
                 img.c == 1 ? "grey" : "colour", c->images[0], (long long)c->first.w, (long long)c->first.h,
                 c->first.c == 1 ? "grey" : "colour");
      rc = -1;
    }
    glow_image_free(&img);
  }
  return rc;
}

/* The option values that do not need the images. */
static int check_options(glow_classify *c) {
  const glow_driver_options *d = c->d;
  int rc = glow_image_prep_parse(d, &c->prep);
  if (d->ndatasets) {
    glow_error("-input-dataset", "image-classifier's samples are the images: for tensors use model-profiler");
    rc = -1;
  }
  if (d->dump_profile && d->load_profile) {
    glow_error("-dump-profile", "cannot be given with -load-profile (Glow's rule): profile the float model, then "
                                "quantize with the profile");
    rc = -1;
  }
  if (d->dump_profile && glow_driver_profile_check_output(d->dump_profile))
    rc = -1;
  return rc;
}

static int classify(glow_classify *c) {
  path_list l = {0};
  int rc = check_options(c);
  if (!rc)
    rc = list_images(c->d, &l);
  c->nimages = l.n;
  c->images = (const char **)l.paths;
  c->batch = c->d->minibatch ? c->d->minibatch : c->nimages;
  if (!rc && c->nimages % c->batch) {
    glow_error("-minibatch", "%d images are not a multiple of the minibatch (%d): add or drop images, or pick "
               "another -minibatch (0: all in one batch)", c->nimages, c->batch);
    rc = -1;
  }
  if (!rc && c->d->nexpected && c->d->nexpected != c->nimages) {
    glow_error("-expected-labels", "%d labels for %d images: give one label per image", c->d->nexpected,
               c->nimages);
    rc = -1;
  }
  if (!rc)
    rc = check_images(c);
  if (!rc)
    rc = glow_classify_model(c);
  if (!rc)
    rc = glow_classify_run(c);
  glow_graph_free(c->g);
  for (int i = 0; i < l.n; i++)
    free(l.paths[i]);
  free(l.paths);
  return rc;
}

int main(int argc, char **argv) {
  glow_driver_options d;
  int rc = glow_driver_parse(GLOW_TOOL_CLASSIFIER, argc, argv, &d);
  if (!rc && d.help) {
    glow_driver_usage(GLOW_TOOL_CLASSIFIER, stdout);
  } else if (!rc && d.version) {
    printf("glowc %s\n", GLOWC_VERSION);
  } else if (!rc) {
    glow_classify c = {.d = &d};
    rc = classify(&c);
  }
  glow_driver_options_free(&d);
  /* Glow's exit status: the -expected-labels misses (capped: a status is 8 bits). */
  return rc < 0 ? 1 : rc > 255 ? 255 : rc;
}
