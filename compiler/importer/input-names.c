/* The input names a model declares (ONNX graph.input, Caffe2 predict_net's external_input,
 * TFLite subgraph 0's input tensors), read from the file without importing the model:
 * -entry gives each model the -model-input options that name one of its inputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importer/flatbuf.h"
#include "importer/tensor-data.h"

typedef struct {
  char **names;
  int n;
} name_list;

/* One field of a message: its number and, for a length-delimited field, its bytes.
 * @return 1, or 0 at the end or on malformed bytes (the importer reports those). */
static int next_field(const uint8_t **p, const uint8_t *end, uint64_t *number, const uint8_t **bytes, uint64_t *len) {
  uint64_t tag, v;
  if (*p >= end || !glow_pb_varint(p, end, &tag))
    return 0;
  *bytes = NULL;
  switch (tag & 7) {
  case 0: return glow_pb_varint(p, end, &v) && (*number = tag >> 3, 1);
  case 1: v = 8; break;
  case 5: v = 4; break;
  case 2:
    if (!glow_pb_varint(p, end, &v))
      return 0;
    *bytes = *p;
    break;
  default: return 0;
  }
  if (v > (uint64_t)(end - *p))
    return 0;
  *p += v;
  *number = tag >> 3;
  *len = v;
  return 1;
}

static void add(name_list *l, const uint8_t *s, uint64_t len) {
  l->names = glow_xrealloc(l->names, sizeof *l->names * (size_t)(l->n + 1));
  char *name = glow_xmalloc((size_t)len + 1);
  memcpy(name, s, (size_t)len);
  name[len] = 0;
  l->names[l->n++] = name;
}

/* The string fields numbered `field` of the message in [p, end); with `inner`, the
 * string field 1 (name) of each such sub-message instead. */
static void strings(name_list *l, const uint8_t *p, const uint8_t *end, uint64_t field, int inner) {
  uint64_t number, len;
  const uint8_t *bytes;
  while (next_field(&p, end, &number, &bytes, &len)) {
    if (number != field || !bytes)
      continue;
    if (inner)
      strings(l, bytes, bytes + len, 1, 0);
    else
      add(l, bytes, len);
  }
}

/* Field indices of tflite.fbs: Model.subgraphs, SubGraph.tensors and .inputs, Tensor.name. */
enum { TFL_MODEL_SUBGRAPHS = 2, TFL_SG_TENSORS = 0, TFL_SG_INPUTS = 1, TFL_T_NAME = 3 };

/* The names of a .tflite model's inputs as its importer names them: the tensor's name, or
 * tensor<index> when it has none or with -tflite-rename-tensors. Each offset, vector and
 * string is checked by the FlatBuffers reader; bytes it refuses give no names (the import
 * then reports them). */
static void tflite_names(name_list *l, const uint8_t *data, size_t size, int rename) {
  glow_fb fb = {.buf = data, .size = size};
  glow_fb_table model, sg, t;
  glow_fb_vec sgs, tensors, inputs;
  if (glow_fb_root(&fb, "TFL3", &model) || glow_fb_vec_field(&model, TFL_MODEL_SUBGRAPHS, 4, &sgs) <= 0 ||
      glow_fb_vec_table(&sgs, 0, &sg) || glow_fb_vec_field(&sg, TFL_SG_TENSORS, 4, &tensors) < 0 ||
      glow_fb_vec_field(&sg, TFL_SG_INPUTS, 4, &inputs) < 0)
    return;
  for (uint32_t k = 0; k < inputs.n; k++) {
    int64_t ti = glow_fb_vec_int(&inputs, k);
    if (ti < 0 || ti >= (int64_t)tensors.n || glow_fb_vec_table(&tensors, (uint32_t)ti, &t))
      return;
    const char *name = glow_fb_string(&t, TFL_T_NAME, "");
    if (glow_fb_failed(&fb))
      return;
    char made[32];
    snprintf(made, sizeof made, "tensor%lld", (long long)ti);
    if (rename || !*name)
      name = made;
    add(l, (const uint8_t *)name, strlen(name));
  }
}

int glow_model_input_names(const char *model, const char *init_net, const glow_import_options *o, char ***names,
                           int *n) {
  char *predict, *init;
  int caffe2 = glow_caffe2_paths(model, init_net, &predict, &init);
  uint8_t *data;
  size_t size;
  int rc = glow_read_file(caffe2 ? predict : model, &data, &size);
  name_list l = {NULL, 0};
  if (!rc && caffe2) {
    strings(&l, data, data + size, 7, 0); /* NetDef.external_input */
  } else if (!rc && glow_tflite_file(model)) {
    tflite_names(&l, data, size, o->tflite.rename_tensors);
  } else if (!rc) {
    const uint8_t *p = data, *end = data + size, *bytes;
    uint64_t number, len;
    while (next_field(&p, end, &number, &bytes, &len))
      if (number == 7 && bytes) /* ModelProto.graph: GraphProto.input (11), each a ValueInfoProto */
        strings(&l, bytes, bytes + len, 11, 1);
  }
  if (!rc)
    free(data);
  free(predict);
  free(init);
  *names = l.names;
  *n = l.n;
  return rc;
}
