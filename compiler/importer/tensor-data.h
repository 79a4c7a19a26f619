/* Helpers shared by the ONNX importer and the TensorProto loader. */
#ifndef GLOW_TENSOR_DATA_H
#define GLOW_TENSOR_DATA_H

#include "glowc.h"
#include "onnx.pb-c.h"

/* Reads a whole file into *data (malloc'd, free with free()).
 * @return 0, or -1 after "path: error: ..." if it cannot be read or is empty. */
int glow_pb_file_read(const char *path, uint8_t **data, size_t *size);

/* Says why `data` does not decode as a protobuf message, as far as a scan of its
 * top-level fields can tell (truncation, a bad wire type), into buf[cap]. */
const char *glow_pb_diagnose(const uint8_t *data, size_t size, char *buf, size_t cap);

/* Converts a TensorProto into dims and a dense row-major buffer in host byte
 * order (malloc'd). Data comes from raw_data (little-endian) or from the typed
 * field ONNX assigns to the data type. String, complex and externally stored
 * tensors are refused.
 * @return 0, or -1 after "where: error: what: ..." */
int glow_tensor_from_pb(const Onnx__TensorProto *t, const char *where, const char *what, glow_dtype *dt, int *rank,
                        int64_t dims[GLOW_MAX_RANK], void **data);

#endif
