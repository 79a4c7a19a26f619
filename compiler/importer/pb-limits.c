/* The limits a protobuf file must keep to be decoded at all (message and node
 * counts), checked on its wire bytes along the schema. The schemas glowc
 * decodes with (onnx.proto, caffe2.proto) are not recursive: subgraphs and
 * nested nets are kept as bytes and refused, so this walk and protobuf-c's
 * recursion are at most a few messages deep whatever a file nests. */
#include <stdlib.h>
#include <string.h>

#include "importer/tensor-data.h"

typedef struct {
  const uint8_t *start;
  const ProtobufCMessageDescriptor *node; /* the message type counted against max_nodes */
  const char *node_noun;
  size_t nodes, messages;
  const char *path;
} limits_scan;

/* Walks one message's fields, descending into the fields the schema says are
 * messages. Malformed bytes end the walk quietly: protobuf-c and
 * glow_pb_diagnose report those. @return -1 after an error when a limit is passed. */
static int walk(limits_scan *s, const uint8_t *p, const uint8_t *end, const ProtobufCMessageDescriptor *d) {
  while (p < end) {
    uint64_t tag, v;
    if (!glow_pb_varint(&p, end, &tag))
      return 0;
    switch (tag & 7) {
    case 0:
      if (!glow_pb_varint(&p, end, &v))
        return 0;
      continue;
    case 1: v = 8; break;
    case 5: v = 4; break;
    case 2:
      if (!glow_pb_varint(&p, end, &v))
        return 0;
      break;
    default: return 0;
    }
    if (v > (uint64_t)(end - p))
      return 0;
    const ProtobufCFieldDescriptor *f =
        (tag & 7) == 2 && tag >> 3 <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(d, (unsigned)(tag >> 3)) : NULL;
    if (f && f->type == PROTOBUF_C_TYPE_MESSAGE) {
      const ProtobufCMessageDescriptor *sub = f->descriptor;
      size_t at = (size_t)(p - s->start);
      if (++s->messages > GLOW_PB_MAX_MESSAGES) {
        glow_error(s->path, "more than %d protobuf messages (the %s at byte %zu is one too many); glowc refuses larger "
                   "files before decoding them, to keep its memory bounded", GLOW_PB_MAX_MESSAGES, sub->name, at);
        return -1;
      }
      if (sub == s->node && ++s->nodes > GLOW_MAX_NODES) {
        glow_error(s->path, "more than %d %s (the one at byte %zu is one too many); glowc refuses larger graphs "
                   "before decoding them, to keep its memory bounded", GLOW_MAX_NODES, s->node_noun, at);
        return -1;
      }
      if (walk(s, p, p + v, sub))
        return -1;
    }
    p += v;
  }
  return 0;
}

int glow_pb_check_limits(const uint8_t *data, size_t size, const ProtobufCMessageDescriptor *top,
                         const ProtobufCMessageDescriptor *node, const char *node_noun, const char *path) {
  limits_scan s = {data, node, node_noun, 0, 0, path};
  return walk(&s, data, data + size, top);
}
