/* -model: which importer reads it. A folder holding predict_net.pb and
 * init_net.pb, or those two files named one after the other (Glow's
 * -model=predict_net.pb -model=init_net.pb), is a Caffe2 model; a single file
 * is a TFLite model when it is named .tflite or holds TFLite's identifier,
 * else an ONNX model. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "glowc.h"

static char *join(const char *dir, const char *file) {
  glow_strbuf b = {0};
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  glow_sb_printf(&b, "%.*s/%s", (int)n, dir, file);
  return b.s;
}

int glow_caffe2_paths(const char *model, const char *init_net, char **predict, char **init) {
  struct stat st;
  *predict = *init = NULL;
  if (init_net) {
    *predict = glow_xstrdup(model);
    *init = glow_xstrdup(init_net);
    return 1;
  }
  if (stat(model, &st) != 0 || !S_ISDIR(st.st_mode))
    return 0;
  *predict = join(model, "predict_net.pb");
  *init = join(model, "init_net.pb");
  return 1;
}

/* A folder without both files, or one Caffe2 file given alone, is refused with what to pass. */
static int check_caffe2(const char *model, const char *predict, const char *init) {
  struct stat st;
  int has_p = predict && stat(predict, &st) == 0, has_i = init && stat(init, &st) == 0;
  if (predict && (!has_p || !has_i) && !strcmp(model, predict))
    return 0; /* two files: the importer reports the one it cannot read */
  if (predict && (!has_p || !has_i)) {
    glow_error(model, "a Caffe2 model folder holds predict_net.pb and init_net.pb, and this one has %s; -model takes "
               "an .onnx file or such a folder", has_p ? "no init_net.pb" : has_i ? "no predict_net.pb" : "neither");
    return -1;
  }
  const char *base = strrchr(model, '/');
  base = base ? base + 1 : model;
  if (!predict && (!strcmp(base, "predict_net.pb") || !strcmp(base, "init_net.pb"))) {
    glow_error(model, "a Caffe2 net is two files: pass the folder holding predict_net.pb and init_net.pb "
               "(-model=<dir>), or both (-model=<dir>/predict_net.pb -model=<dir>/init_net.pb)");
    return -1;
  }
  return 0;
}

glow_graph *glow_import_model(const char *model, const char *init_net, const glow_import_options *o) {
  char *predict, *init;
  int caffe2 = glow_caffe2_paths(model, init_net, &predict, &init);
  glow_graph *g = NULL;
  int tflite = !caffe2 && glow_tflite_file(model);
  if (!check_caffe2(model, predict, init))
    g = caffe2   ? glow_import_caffe2(predict, init, o)
        : tflite ? glow_import_tflite(model, o)
                 : glow_import_onnx(model, o);
  if (g && tflite && o->tflite.dump_graph && glow_graph_dump_dot(g, o->tflite.dump_graph)) { /* as imported */
    glow_graph_free(g);
    g = NULL;
  }
  if (g && caffe2) /* later messages name the model as given: the paths made here are freed */
    g->file = model;
  free(predict);
  free(init);
  return g;
}
