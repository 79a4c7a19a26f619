/* The .weights.zst format (glowc's packed constant weights), shared by the
 * compiler, which writes it (compiler/codegen/emit-weights-zst.c), and the
 * runtime, which reads it (runtime/weights-zst.c). README.md describes it for
 * other tools. All integers little-endian.
 *
 *   header, 64 bytes:
 *      0  magic "GLOWZST\0"
 *      8  u32 format version (1)
 *     12  u32 checksum kind (1: XXH64, seed 0)
 *     16  u64 raw size: bytes of the constant area
 *     24  u64 alignment of the constant area
 *     32  u64 checksum of the raw bytes
 *     40  u32 filter id (0: none, the frame holds the raw bytes; 1: float lanes)
 *     44  u32 segments (filter 1; 0 otherwise)
 *     48  u64 filtered size: the content of the zstd frame, in bytes
 *     56  u64 frame size: the zstd frame's own bytes, which end the file
 *   filter 1: segments x 16 bytes, ascending, not overlapping:
 *      u64 offset in the raw area (a multiple of 4), u32 words, u8 top
 *      exponent of the segment, 3 zero bytes
 *   filter 1: chunks x u32: escapes of each chunk (below)
 *   one zstd frame (window at most 2^GLOW_WZST_WINDOW_LOG bytes, content size
 *   set) holding the filtered bytes.
 *
 * Filter 1, float lanes: the words of the segments (float32 tensors), taken in
 * order as one sequence, are cut in chunks of GLOW_WZST_CHUNK_WORDS; chunk c
 * of n words is
 *   lane 2: n bytes, sign << 7 | mantissa bits 22..16 of each word
 *   lane 1: n bytes, mantissa bits 15..8;  lane 0: n bytes, mantissa bits 7..0
 *   nibbles: (n + 1) / 2 bytes, word 2k in the low nibble of byte k, 2k+1 in
 *     the high one: d = top exponent of the word's segment - its exponent, or
 *     15 when d >= 15, when the exponent is the next of the chunk's escapes
 *   escapes: one byte each, the exponents of the words whose nibble is 15
 *   zero bytes to the next multiple of GLOW_WZST_ALIGN of the filtered
 *   stream (so that zstd's 128 KiB blocks each hold one lane of a full chunk:
 *   its literals then code the low-entropy exponent nibbles on their own).
 * After the last chunk come the raw bytes outside every segment (padding,
 * integer tensors), in offset order. Within a segment the exponent is nearly
 * all the information a float holds beyond noise, so it is split off: the
 * mantissa lanes stay as they are and the nibbles compress to about their
 * entropy. */
#ifndef GLOW_WEIGHTS_ZST_FORMAT_H
#define GLOW_WEIGHTS_ZST_FORMAT_H

#include <stdint.h>
#include <string.h>

#define GLOW_WZST_MAGIC "GLOWZST"   /* and a zero byte: 8 bytes */
#define GLOW_WZST_VERSION 1u
#define GLOW_WZST_CHECKSUM_XXH64 1u
#define GLOW_WZST_FILTER_NONE 0u
#define GLOW_WZST_FILTER_FLOAT_LANES 1u
#define GLOW_WZST_HEADER_SIZE 64u
#define GLOW_WZST_SEGMENT_SIZE 16u
#define GLOW_WZST_CHUNK_WORDS (1u << 18)
#define GLOW_WZST_ALIGN (1u << 17)
#define GLOW_WZST_WINDOW_LOG 20 /* the decoder's window: 1 MiB */

typedef struct glow_wzst_header {
  uint32_t version, checksum_kind, filter, segments;
  uint64_t raw_size, alignment, checksum, filtered_size, frame_size;
} glow_wzst_header;

typedef struct glow_wzst_segment {
  uint64_t offset;
  uint32_t words;
  uint8_t top_exponent;
} glow_wzst_segment;

static inline void glow_wzst_put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static inline void glow_wzst_put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint32_t glow_wzst_get32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t glow_wzst_get64(const uint8_t *p) {
  return (uint64_t)glow_wzst_get32(p) | (uint64_t)glow_wzst_get32(p + 4) << 32;
}

static inline void glow_wzst_header_write(uint8_t out[GLOW_WZST_HEADER_SIZE], const glow_wzst_header *h) {
  memset(out, 0, GLOW_WZST_HEADER_SIZE);
  memcpy(out, GLOW_WZST_MAGIC, 8);
  glow_wzst_put32(out + 8, h->version);
  glow_wzst_put32(out + 12, h->checksum_kind);
  glow_wzst_put64(out + 16, h->raw_size);
  glow_wzst_put64(out + 24, h->alignment);
  glow_wzst_put64(out + 32, h->checksum);
  glow_wzst_put32(out + 40, h->filter);
  glow_wzst_put32(out + 44, h->segments);
  glow_wzst_put64(out + 48, h->filtered_size);
  glow_wzst_put64(out + 56, h->frame_size);
}

/* @return 0, or -1 when the 8 bytes are not the magic (other fields unchecked). */
static inline int glow_wzst_header_read(const uint8_t in[GLOW_WZST_HEADER_SIZE], glow_wzst_header *h) {
  if (memcmp(in, GLOW_WZST_MAGIC, 8))
    return -1;
  h->version = glow_wzst_get32(in + 8);
  h->checksum_kind = glow_wzst_get32(in + 12);
  h->raw_size = glow_wzst_get64(in + 16);
  h->alignment = glow_wzst_get64(in + 24);
  h->checksum = glow_wzst_get64(in + 32);
  h->filter = glow_wzst_get32(in + 40);
  h->segments = glow_wzst_get32(in + 44);
  h->filtered_size = glow_wzst_get64(in + 48);
  h->frame_size = glow_wzst_get64(in + 56);
  return 0;
}

/* Chunks of the float-lanes filter over `words` segment words. */
static inline uint64_t glow_wzst_chunks(uint64_t words) {
  return (words + GLOW_WZST_CHUNK_WORDS - 1) / GLOW_WZST_CHUNK_WORDS;
}

/* Bytes of a filtered chunk of n words with e escapes, padding excluded. */
static inline uint64_t glow_wzst_chunk_bytes(uint64_t n, uint64_t e) { return 3 * n + (n + 1) / 2 + e; }

#endif
