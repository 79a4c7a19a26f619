/* Fuzz target: arbitrary bytes as a serialized TensorProto. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "glowc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  glow_dtype dt;
  int rank;
  int64_t dims[GLOW_MAX_RANK];
  void *buf = NULL;
  char *name = NULL;
  glow_set_quiet(1);
  if (!glow_tensor_pb_parse(data, size, "fuzz.pb", &dt, &rank, dims, &buf, &name)) {
    free(buf);
    free(name);
  }
  return 0;
}
