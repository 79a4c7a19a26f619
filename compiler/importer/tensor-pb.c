/* Loads one serialized TensorProto: the input_N.pb / output_N.pb files of the
 * ONNX conformance suite. */
#include <stdlib.h>

#include "importer/tensor-data.h"

int glow_tensor_pb_load(const char *path, glow_dtype *dt, int *rank, int64_t *dims, void **data, char **name) {
  uint8_t *bytes;
  size_t size;
  if (glow_pb_file_read(path, &bytes, &size))
    return -1;
  int rc = glow_tensor_pb_parse(bytes, size, path, dt, rank, dims, data, name);
  free(bytes);
  return rc;
}

int glow_tensor_pb_parse(const void *bytes, size_t size, const char *path, glow_dtype *dt, int *rank, int64_t *dims,
                         void **data, char **name) {
  Onnx__TensorProto *t = onnx__tensor_proto__unpack(NULL, size, bytes);
  if (!t) {
    char why[160];
    glow_error(path, "not a valid TensorProto (%s)", glow_pb_diagnose(bytes, size, why, sizeof why));
    return -1;
  }
  char what[256];
  snprintf(what, sizeof what, "tensor '%s'", t->name ? t->name : "");
  int rc = glow_tensor_from_pb(t, path, what, dt, rank, dims, data);
  if (!rc && name)
    *name = glow_xstrdup(t->name ? t->name : "");
  onnx__tensor_proto__free_unpacked(t, NULL);
  return rc;
}
