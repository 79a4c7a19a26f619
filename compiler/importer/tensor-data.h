/* Helpers shared by the ONNX importer and the TensorProto loader. */
#ifndef GLOW_TENSOR_DATA_H
#define GLOW_TENSOR_DATA_H

#include "glowc.h"
#include "onnx.pb-c.h"

/* Reads a whole file into *data (malloc'd, free with free()).
 * @return 0, or -1 after "path: error: ..." if it cannot be read or is empty. */
int glow_pb_file_read(const char *path, uint8_t **data, size_t *size);

/* Reads a protobuf varint at *p, advancing it; 0 when it runs past `end` or over 10 bytes. */
int glow_pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

/* Refuses, before protobuf-c decodes it, a `top` message holding more than
 * GLOW_PB_MAX_MESSAGES sub-messages or more than GLOW_MAX_NODES of type `node`
 * (node_noun names them in the error): protobuf-c allocates every message it
 * decodes, a struct of tens of bytes for as little as 2 bytes of file.
 * A scan of the wire bytes, no allocation. Malformed bytes are left to the decoder.
 * @return 0, or -1 after "path: error: ..." */
int glow_pb_check_limits(const uint8_t *data, size_t size, const ProtobufCMessageDescriptor *top,
                         const ProtobufCMessageDescriptor *node, const char *node_noun, const char *path);

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
