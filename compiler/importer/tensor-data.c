/* Protobuf helpers shared by the importers: whole-file reads, decode-failure
 * diagnosis and TensorProto to dense bytes. */
#include <stdlib.h>
#include <string.h>

#include "importer/tensor-data.h"

int glow_pb_file_read(const char *path, uint8_t **data, size_t *size) {
  if (glow_read_file(path, data, size))
    return -1;
  if (!*size) {
    glow_error(path, "file is empty");
    free(*data);
    return -1;
  }
  return 0;
}

int glow_pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  *v = 0;
  for (int shift = 0; shift < 70 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return 1;
  }
  return 0;
}

const char *glow_pb_diagnose(const uint8_t *data, size_t size, char *buf, size_t cap) {
  const uint8_t *p = data, *end = data + size;
  while (p < end) {
    size_t at = (size_t)(p - data);
    uint64_t tag, v;
    if (!glow_pb_varint(&p, end, &tag)) {
      snprintf(buf, cap, "truncated field tag at byte %zu of %zu", at, size);
      return buf;
    }
    unsigned wire = (unsigned)(tag & 7);
    uint64_t field = tag >> 3;
    if (!field) {
      snprintf(buf, cap, "invalid field number 0 at byte %zu", at);
      return buf;
    }
    size_t left;
    switch (wire) {
    case 0:
      if (!glow_pb_varint(&p, end, &v)) {
        snprintf(buf, cap, "field %llu at byte %zu is truncated", (unsigned long long)field, at);
        return buf;
      }
      continue;
    case 1:
    case 5:
      v = wire == 1 ? 8 : 4;
      break;
    case 2:
      if (!glow_pb_varint(&p, end, &v)) {
        snprintf(buf, cap, "field %llu at byte %zu is truncated", (unsigned long long)field, at);
        return buf;
      }
      break;
    default:
      snprintf(buf, cap, "field %llu at byte %zu has unsupported wire type %u", (unsigned long long)field, at, wire);
      return buf;
    }
    left = (size_t)(end - p);
    if (v > left) {
      snprintf(buf, cap, "truncated: field %llu at byte %zu needs %llu bytes but only %zu remain",
               (unsigned long long)field, at, (unsigned long long)v, left);
      return buf;
    }
    p += v;
  }
  snprintf(buf, cap, "a nested message does not decode");
  return buf;
}

static int host_big_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 0;
}

/* raw_data is little-endian whatever the host; swap each element in place on big-endian hosts. */
static void from_le(void *data, int64_t n, size_t esize) {
  if (!host_big_endian() || esize == 1)
    return;
  uint8_t *b = data;
  for (int64_t i = 0; i < n; i++, b += esize)
    for (size_t k = 0; k < esize / 2; k++) {
      uint8_t t = b[k];
      b[k] = b[esize - 1 - k];
      b[esize - 1 - k] = t;
    }
}

/* Number of values in the typed field ONNX uses for dt, and that field's name. */
static size_t typed_count(const Onnx__TensorProto *t, glow_dtype dt, const char **field) {
  switch (dt) {
  case GLOW_DT_F32:
    *field = "float_data";
    return t->n_float_data;
  case GLOW_DT_F64:
    *field = "double_data";
    return t->n_double_data;
  case GLOW_DT_I64:
    *field = "int64_data";
    return t->n_int64_data;
  case GLOW_DT_U32:
  case GLOW_DT_U64:
    *field = "uint64_data";
    return t->n_uint64_data;
  default: /* int32 and everything narrower, float16 and bfloat16 as bit patterns */
    *field = "int32_data";
    return t->n_int32_data;
  }
}

static void typed_copy(const Onnx__TensorProto *t, glow_dtype dt, void *out, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    switch (dt) {
    case GLOW_DT_F32: ((float *)out)[i] = t->float_data[i]; break;
    case GLOW_DT_F64: ((double *)out)[i] = t->double_data[i]; break;
    case GLOW_DT_I64: ((int64_t *)out)[i] = t->int64_data[i]; break;
    case GLOW_DT_U64: ((uint64_t *)out)[i] = t->uint64_data[i]; break;
    case GLOW_DT_U32: ((uint32_t *)out)[i] = (uint32_t)t->uint64_data[i]; break;
    case GLOW_DT_I32: ((int32_t *)out)[i] = t->int32_data[i]; break;
    case GLOW_DT_I16: ((int16_t *)out)[i] = (int16_t)t->int32_data[i]; break;
    case GLOW_DT_U16:
    case GLOW_DT_F16:
    case GLOW_DT_BF16: ((uint16_t *)out)[i] = (uint16_t)t->int32_data[i]; break;
    case GLOW_DT_I8: ((int8_t *)out)[i] = (int8_t)t->int32_data[i]; break;
    case GLOW_DT_U8: ((uint8_t *)out)[i] = (uint8_t)t->int32_data[i]; break;
    case GLOW_DT_BOOL: ((uint8_t *)out)[i] = t->int32_data[i] != 0; break;
    default: unreachable();
    }
  }
}

static int check_dtype(int32_t dt, const char *where, const char *what) {
  if (dt == GLOW_DT_STRING) {
    glow_error(where, "%s: string tensors are not supported", what);
    return -1;
  }
  if (dt == 14 || dt == 15) {
    glow_error(where, "%s: complex tensors are not supported", what);
    return -1;
  }
  if (dt <= 0 || dt >= GLOW_DT_COUNT || !glow_dtype_size((glow_dtype)dt)) {
    glow_error(where, "%s: unknown or missing data type %d", what, (int)dt);
    return -1;
  }
  return 0;
}

int glow_tensor_from_pb(const Onnx__TensorProto *t, const char *where, const char *what, glow_dtype *dt, int *rank,
                        int64_t dims[GLOW_MAX_RANK], void **data) {
  if (check_dtype(t->data_type, where, what))
    return -1;
  glow_dtype d = (glow_dtype)t->data_type;
  if (t->n_external_data || (t->has_data_location && t->data_location == 1)) {
    glow_error(where, "%s: data is stored in an external file, which glowc does not read; save the model with the "
               "data embedded (onnx.save_model(m, path, save_as_external_data=False))", what);
    return -1;
  }
  if (t->n_dims > GLOW_MAX_RANK) {
    glow_error(where, "%s: rank %zu is more than glowc supports (%d)", what, t->n_dims, GLOW_MAX_RANK);
    return -1;
  }
  size_t esize = glow_dtype_size(d);
  int64_t n = 1;
  for (size_t i = 0; i < t->n_dims; i++) {
    if (t->dims[i] < 0) {
      glow_error(where, "%s: dimension %zu is negative (%lld)", what, i, (long long)t->dims[i]);
      return -1;
    }
    if (t->dims[i] && n > INT64_MAX / 16 / t->dims[i]) {
      glow_error(where, "%s: too many elements", what);
      return -1;
    }
    n *= t->dims[i];
  }
  const char *field = "raw_data";
  size_t have = t->has_raw_data ? t->raw_data.len : typed_count(t, d, &field);
  size_t want = t->has_raw_data ? (size_t)n * esize : (size_t)n;
  if (have != want) {
    glow_error(where, "%s: %s has %zu %s, but %lld %s elements need %zu", what, field, have,
               t->has_raw_data ? "bytes" : "values", (long long)n, glow_dtype_name(d), want);
    return -1;
  }
  void *buf = glow_xmalloc((size_t)n * esize);
  if (t->has_raw_data) {
    if (n)
      memcpy(buf, t->raw_data.data, (size_t)n * esize);
    from_le(buf, n, esize);
  } else {
    typed_copy(t, d, buf, n);
  }
  *dt = d;
  *rank = (int)t->n_dims;
  for (size_t i = 0; i < t->n_dims; i++)
    dims[i] = t->dims[i];
  *data = buf;
  return 0;
}
