/* The input names a model declares (ONNX graph.input, Caffe2 predict_net's external_input),
 * read from the wire bytes without decoding the model: -entry gives each model the
 * -model-input options that name one of its inputs. */
#include <stdlib.h>
#include <string.h>

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

int glow_model_input_names(const char *model, const char *init_net, char ***names, int *n) {
  char *predict, *init;
  int caffe2 = glow_caffe2_paths(model, init_net, &predict, &init);
  uint8_t *data;
  size_t size;
  int rc = glow_read_file(caffe2 ? predict : model, &data, &size);
  name_list l = {NULL, 0};
  if (!rc && caffe2) {
    strings(&l, data, data + size, 7, 0); /* NetDef.external_input */
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
