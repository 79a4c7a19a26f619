/* onnx__tensor_proto__unpack() and onnx__tensor_proto__free_unpacked() without
 * libprotobuf-c, for the cross-compiled test driver (tests/cross): the targets
 * have no protobuf-c library, and the driver reads nothing but TensorProtos. It
 * decodes the wire format into the struct protobuf-c would fill, so tensor-pb.c
 * and tensor-data.c (dtypes, typed fields, byte order) are the host driver's,
 * unchanged. Fields are those of compiler/importer/onnx.proto's TensorProto;
 * unknown ones are skipped, as protobuf does; external_data entries are only
 * counted (glow_tensor_from_pb refuses any). Two passes: count, then fill. */
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"

typedef struct {
  const uint8_t *p, *end;
} reader;

static int rd_varint(reader *r, uint64_t *v) {
  *v = 0;
  for (int shift = 0; shift < 70 && r->p < r->end; shift += 7) {
    uint8_t b = *r->p++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return 0;
  }
  return -1;
}

/* Little-endian fixed32 or fixed64, whatever the host's byte order. */
static int rd_fixed(reader *r, int size, uint64_t *v) {
  if (r->end - r->p < size)
    return -1;
  *v = 0;
  for (int i = 0; i < size; i++)
    *v |= (uint64_t)r->p[i] << 8 * i;
  r->p += size;
  return 0;
}

static int rd_bytes(reader *r, reader *out) {
  uint64_t n;
  if (rd_varint(r, &n) || n > (uint64_t)(r->end - r->p))
    return -1;
  out->p = r->p;
  out->end = r->p + n;
  r->p += n;
  return 0;
}

static int skip(reader *r, int wire) {
  uint64_t v;
  reader b;
  switch (wire) {
  case 0: return rd_varint(r, &v);
  case 1: return rd_fixed(r, 8, &v);
  case 5: return rd_fixed(r, 4, &v);
  case 2: return rd_bytes(r, &b);
  default: return -1;
  }
}

/* One value of a repeated scalar field (wire type 0, 1 or 5): counted into *n
 * and, when arr is given, stored there (8-byte values whole, 4-byte ones as
 * their low 32 bits, as protobuf reads int32 and float). */
static int one_scalar(reader *r, int wire, void *arr, size_t esize, size_t *n) {
  uint64_t v;
  if (wire == 0 ? rd_varint(r, &v) : rd_fixed(r, wire == 1 ? 8 : 4, &v))
    return -1;
  if (arr && esize == 8)
    memcpy((uint8_t *)arr + *n * 8, &v, 8);
  else if (arr) {
    uint32_t w = (uint32_t)v;
    memcpy((uint8_t *)arr + *n * 4, &w, 4);
  }
  (*n)++;
  return 0;
}

/* A repeated scalar field, packed (wire type 2) or one value at a time. */
static int repeated(reader *r, int wire, int elem_wire, void *arr, size_t esize, size_t *n) {
  if (wire == elem_wire)
    return one_scalar(r, wire, arr, esize, n);
  reader run;
  if (wire != 2 || rd_bytes(r, &run))
    return -1;
  while (run.p < run.end)
    if (one_scalar(&run, elem_wire, arr, esize, n))
      return -1;
  return 0;
}

/* The bytes of b, NUL-terminated (for strings). */
static uint8_t *copy(reader b) {
  size_t n = (size_t)(b.end - b.p);
  uint8_t *s = malloc(n + 1);
  if (s) {
    memcpy(s, b.p, n);
    s[n] = 0;
  }
  return s;
}

/* Pass 1 (fill = 0) counts the repeated fields into t->n_*; pass 2 stores
 * them into arrays of those sizes, and the singular fields (the last wins). */
static int decode(Onnx__TensorProto *t, reader r, int fill) {
  while (r.p < r.end) {
    uint64_t key, v;
    reader b;
    if (rd_varint(&r, &key))
      return -1;
    int wire = (int)(key & 7), bad = 0;
    switch (key >> 3) {
    case 1: bad = repeated(&r, wire, 0, t->dims, 8, &t->n_dims); break;
    case 4: bad = repeated(&r, wire, 5, t->float_data, 4, &t->n_float_data); break;
    case 5: bad = repeated(&r, wire, 0, t->int32_data, 4, &t->n_int32_data); break;
    case 7: bad = repeated(&r, wire, 0, t->int64_data, 8, &t->n_int64_data); break;
    case 10: bad = repeated(&r, wire, 1, t->double_data, 8, &t->n_double_data); break;
    case 11: bad = repeated(&r, wire, 0, t->uint64_data, 8, &t->n_uint64_data); break;
    case 2:
    case 14:
      bad = wire != 0 || rd_varint(&r, &v);
      if (!bad && fill && key >> 3 == 2) {
        t->has_data_type = 1;
        t->data_type = (int32_t)v;
      } else if (!bad && fill) {
        t->has_data_location = 1;
        t->data_location = (int32_t)v;
      }
      break;
    case 6:
    case 8:
    case 9:
    case 13:
      bad = wire != 2 || rd_bytes(&r, &b);
      if (bad)
        break;
      if (key >> 3 == 13) {
        t->n_external_data++;
      } else if (key >> 3 == 6) {
        if (fill && !(t->string_data[t->n_string_data].data = copy(b)))
          return -1;
        if (fill)
          t->string_data[t->n_string_data].len = (size_t)(b.end - b.p);
        t->n_string_data++;
      } else if (fill && key >> 3 == 8) {
        free(t->name);
        if (!(t->name = (char *)copy(b)))
          return -1;
      } else if (fill) {
        free(t->raw_data.data);
        if (!(t->raw_data.data = copy(b)))
          return -1;
        t->raw_data.len = (size_t)(b.end - b.p);
        t->has_raw_data = 1;
      }
      break;
    default: bad = skip(&r, wire);
    }
    if (bad)
      return -1;
  }
  return 0;
}

void onnx__tensor_proto__free_unpacked(Onnx__TensorProto *t, ProtobufCAllocator *allocator) {
  (void)allocator;
  if (!t)
    return;
  for (size_t i = 0; t->string_data && i < t->n_string_data; i++)
    free(t->string_data[i].data);
  free(t->dims);
  free(t->float_data);
  free(t->int32_data);
  free(t->string_data);
  free(t->int64_data);
  free(t->name);
  free(t->raw_data.data);
  free(t->double_data);
  free(t->uint64_data);
  free(t->external_data);
  free(t);
}

Onnx__TensorProto *onnx__tensor_proto__unpack(ProtobufCAllocator *allocator, size_t len, const uint8_t *data) {
  (void)allocator;
  reader r = {data, data + len};
  Onnx__TensorProto *t = calloc(1, sizeof *t);
  if (!t || decode(t, r, 0)) {
    free(t);
    return NULL;
  }
  /* Arrays of the counted sizes (one spare element: no zero-size allocations). */
  int ok = (t->dims = calloc(t->n_dims + 1, sizeof *t->dims)) &&
           (t->float_data = calloc(t->n_float_data + 1, sizeof *t->float_data)) &&
           (t->int32_data = calloc(t->n_int32_data + 1, sizeof *t->int32_data)) &&
           (t->string_data = calloc(t->n_string_data + 1, sizeof *t->string_data)) &&
           (t->int64_data = calloc(t->n_int64_data + 1, sizeof *t->int64_data)) &&
           (t->double_data = calloc(t->n_double_data + 1, sizeof *t->double_data)) &&
           (t->uint64_data = calloc(t->n_uint64_data + 1, sizeof *t->uint64_data)) &&
           (t->external_data = calloc(t->n_external_data + 1, sizeof *t->external_data));
  t->n_dims = t->n_float_data = t->n_int32_data = t->n_string_data = 0;
  t->n_int64_data = t->n_double_data = t->n_uint64_data = t->n_external_data = 0;
  if (!ok || decode(t, r, 1)) {
    onnx__tensor_proto__free_unpacked(t, NULL);
    return NULL;
  }
  return t;
}
