/* Packed weights (.weights.zst, weights-zst-format.h): read, unfiltered and
 * checked straight into the constant area. The zstd frame is streamed: the
 * extra memory is the decoder (a 1 MiB window), one filtered chunk and the
 * file's input buffer, whatever the size of the weights. Every defect of the
 * file is an error naming it; nothing is trusted before it is checked. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>
#include <zstd.h>

#include "runtime-internal.h"
#include "weights-zst-format.h"

/* Every step returns GLOW_RT_OK or the status of its error, passed on as is. */
#define TRY(x)                                                                                                         \
  do {                                                                                                                 \
    int try_ = (x);                                                                                                    \
    if (try_)                                                                                                          \
      return try_;                                                                                                     \
  } while (0)

/* Where the packed bytes come from: a file, or memory (embedded,zst). */
typedef struct {
  const char *label; /* the file's path, or what the bytes are */
  FILE *f;
  const uint8_t *mem;
  uint64_t size, pos; /* of the whole packed bytes */
  uint8_t *buf;       /* the file's input buffer */
  size_t cap;
  ZSTD_inBuffer in;
  uint64_t frame_left; /* frame bytes not yet handed to the decoder */
  int frame_done;      /* the decoder has seen the frame's end */
  ZSTD_DStream *z;
} src;

static int bad(const src *s, const char *what) {
  return glow_rt_fail(GLOW_RT_ERR_FORMAT, "%s: %s", s->label, what);
}

/* Exactly n bytes of the tables into dst. */
static int read_exact(src *s, void *dst, uint64_t n) {
  if (s->size - s->pos < n)
    return bad(s, "truncated: the file ends inside its header or tables");
  if (s->f ? fread(dst, 1, (size_t)n, s->f) != n : (memcpy(dst, s->mem + s->pos, (size_t)n), 0))
    return glow_rt_fail(GLOW_RT_ERR_IO, "%s: read error", s->label);
  s->pos += n;
  return 0;
}

/* More frame bytes for the decoder; 0, or an error when the frame is used up. */
static int refill(src *s) {
  if (!s->frame_left)
    return bad(s, "truncated or corrupt: the zstd frame ends before the weights it declares");
  uint64_t n = s->frame_left;
  if (s->f) {
    n = n < s->cap ? n : s->cap;
    if (fread(s->buf, 1, (size_t)n, s->f) != n)
      return glow_rt_fail(GLOW_RT_ERR_IO, "%s: read error", s->label);
    s->in = (ZSTD_inBuffer){s->buf, (size_t)n, 0};
  } else {
    s->in = (ZSTD_inBuffer){s->mem + s->pos, (size_t)n, 0};
  }
  s->pos += n;
  s->frame_left -= n;
  return 0;
}

/* The next n decompressed bytes into dst. */
static int produce(src *s, uint8_t *dst, uint64_t n) {
  ZSTD_outBuffer out = {dst, (size_t)n, 0};
  while (out.pos < out.size) {
    if (s->in.pos == s->in.size && s->frame_left)
      TRY(refill(s));
    size_t before = out.pos, consumed = s->in.pos, r = ZSTD_decompressStream(s->z, &out, &s->in);
    if (ZSTD_isError(r))
      return glow_rt_fail(GLOW_RT_ERR_FORMAT, "%s: corrupt zstd frame (%s)", s->label, ZSTD_getErrorName(r));
    s->frame_done = r == 0;
    if (r == 0 && out.pos < out.size)
      return bad(s, "corrupt: the zstd frame holds fewer bytes than its header declares");
    if (out.pos == before && s->in.pos == consumed) /* no progress: the input is used up */
      TRY(refill(s));
  }
  return 0;
}

/* After the declared bytes: the frame must end there, and the file with it. */
static int finish(src *s) {
  while (!s->frame_done) {
    uint8_t extra;
    ZSTD_outBuffer out = {&extra, 1, 0};
    size_t r = ZSTD_decompressStream(s->z, &out, &s->in);
    if (ZSTD_isError(r))
      return glow_rt_fail(GLOW_RT_ERR_FORMAT, "%s: corrupt zstd frame (%s)", s->label, ZSTD_getErrorName(r));
    if (out.pos)
      return bad(s, "the zstd frame holds more bytes than the header declares (a decompression bomb?)");
    s->frame_done = r == 0;
    if (s->frame_done)
      break;
    if (s->in.pos == s->in.size)
      TRY(refill(s)); /* more input, or the frame is truncated */
  }
  if (s->in.pos != s->in.size || s->frame_left)
    return bad(s, "bytes follow the end of the zstd frame");
  return 0;
}

typedef struct {
  glow_wzst_header h;
  glow_wzst_segment *seg;
  uint32_t *escapes;
  uint64_t words, chunks;
} tables;

static int check_header(src *s, const glow_bundle *b, tables *t) {
  uint8_t raw[GLOW_WZST_HEADER_SIZE];
  if (s->size < GLOW_WZST_HEADER_SIZE)
    return bad(s, "truncated: shorter than the 64-byte header of packed weights");
  TRY(read_exact(s, raw, GLOW_WZST_HEADER_SIZE));
  glow_wzst_header *h = &t->h;
  if (glow_wzst_header_read(raw, h))
    return bad(s, "not glowc packed weights (no GLOWZST magic at the start)");
  if (h->version != GLOW_WZST_VERSION)
    return glow_rt_fail(GLOW_RT_ERR_FORMAT, "%s: packed-weights format version %u; this runtime reads version %u",
                        s->label, h->version, GLOW_WZST_VERSION);
  if (h->checksum_kind != GLOW_WZST_CHECKSUM_XXH64)
    return glow_rt_fail(GLOW_RT_ERR_FORMAT, "%s: unknown checksum kind %u", s->label, h->checksum_kind);
  if (h->raw_size != b->config->constantWeightVarsMemSize)
    return glow_rt_fail(GLOW_RT_ERR_SIZE,
                        "%s: packs %llu bytes of constant weights; bundle '%s' needs %llu (a weights file from another "
                        "model or compile?)",
                        s->label, (unsigned long long)h->raw_size, b->name,
                        (unsigned long long)b->config->constantWeightVarsMemSize);
  if (h->alignment != glow_rt_alignment(b))
    return glow_rt_fail(GLOW_RT_ERR_SIZE, "%s: packed for %llu-byte alignment; bundle '%s' uses %llu", s->label,
                        (unsigned long long)h->alignment, b->name, (unsigned long long)glow_rt_alignment(b));
  if (h->filter > GLOW_WZST_FILTER_FLOAT_LANES || (h->filter == GLOW_WZST_FILTER_NONE) != (h->segments == 0))
    return glow_rt_fail(GLOW_RT_ERR_FORMAT, "%s: unknown filter %u (or segments that do not fit it)", s->label,
                        h->filter);
  /* Tensors are 64-byte aligned: no more segments than that allows. */
  if (h->segments > h->raw_size / 64 + 1)
    return bad(s, "corrupt: more segments than the weights can hold");
  return 0;
}

/* The segment and escape tables, checked, and the filtered size they imply. */
static int read_tables(src *s, tables *t) {
  glow_wzst_header *h = &t->h;
  uint8_t e[GLOW_WZST_SEGMENT_SIZE];
  t->seg = malloc(sizeof *t->seg * (h->segments + 1));
  if (!t->seg)
    return glow_rt_fail(GLOW_RT_ERR_NOMEM, "%s: out of memory", s->label);
  uint64_t end = 0;
  for (uint32_t i = 0; i < h->segments; i++) {
    TRY(read_exact(s, e, GLOW_WZST_SEGMENT_SIZE));
    glow_wzst_segment *g = &t->seg[i];
    *g = (glow_wzst_segment){glow_wzst_get64(e), glow_wzst_get32(e + 8), e[12]};
    if (g->offset % 4 || g->offset < end || !g->words || g->offset > h->raw_size ||
        4ull * g->words > h->raw_size - g->offset)
      return bad(s, "corrupt: a segment lies outside the weights, overlaps another or is empty");
    end = g->offset + 4ull * g->words;
    t->words += g->words;
  }
  t->chunks = h->segments ? glow_wzst_chunks(t->words) : 0;
  t->escapes = malloc(sizeof *t->escapes * (t->chunks + 1));
  if (!t->escapes)
    return glow_rt_fail(GLOW_RT_ERR_NOMEM, "%s: out of memory", s->label);
  uint64_t filtered = 0;
  for (uint64_t c = 0; c < t->chunks; c++) {
    TRY(read_exact(s, e, 4));
    uint64_t n = t->words - c * GLOW_WZST_CHUNK_WORDS;
    n = n < GLOW_WZST_CHUNK_WORDS ? n : GLOW_WZST_CHUNK_WORDS;
    t->escapes[c] = glow_wzst_get32(e);
    if (t->escapes[c] > n)
      return bad(s, "corrupt: a chunk has more escapes than words");
    filtered += glow_wzst_chunk_bytes(n, t->escapes[c]);
    filtered += (GLOW_WZST_ALIGN - filtered % GLOW_WZST_ALIGN) % GLOW_WZST_ALIGN;
  }
  filtered += h->raw_size - 4 * t->words;
  if (filtered != h->filtered_size)
    return bad(s, "corrupt: the header's filtered size does not match its tables");
  if (h->frame_size != s->size - s->pos)
    return glow_rt_fail(GLOW_RT_ERR_FORMAT, "%s: %s: the header declares a %llu-byte zstd frame, %llu bytes follow",
                        s->label, h->frame_size > s->size - s->pos ? "truncated" : "trailing bytes",
                        (unsigned long long)h->frame_size, (unsigned long long)(s->size - s->pos));
  return 0;
}

/* A little-endian word into p (one store on little-endian hosts). */
static inline void put_word(uint8_t *p, uint32_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(p, &w, 4);
#else
  glow_wzst_put32(p, w);
#endif
}

/* Chunk c's filtered bytes (in buf) back into the words of the segments, a
 * segment's run of them at a time. */
static int unfilter(src *s, const tables *t, uint64_t c, const uint8_t *buf, uint64_t n, uint8_t *area,
                    int *seg, uint64_t *first) {
  const uint8_t *l2 = buf, *l1 = buf + n, *l0 = buf + 2 * n, *nib = buf + 3 * n, *esc = nib + (n + 1) / 2;
  uint32_t ne = 0;
  uint64_t j0 = c * GLOW_WZST_CHUNK_WORDS;
  for (uint64_t k = 0; k < n;) {
    while (j0 + k >= *first + t->seg[*seg].words)
      *first += t->seg[(*seg)++].words;
    const glow_wzst_segment *g = &t->seg[*seg];
    uint64_t end = *first + g->words - j0;
    end = end < n ? end : n;
    uint8_t *dst = area + g->offset + 4 * (j0 + k - *first);
    uint32_t top = g->top_exponent;
    for (; k < end; k++, dst += 4) {
      uint32_t d = nib[k / 2] >> (4 * (k % 2)) & 15, e = top - d;
      if (d == 15) {
        if (ne == t->escapes[c])
          return bad(s, "corrupt: a chunk uses more escapes than it declares");
        e = esc[ne++];
      } else if (d > top) {
        return bad(s, "corrupt: an exponent below zero");
      }
      put_word(dst, (uint32_t)(l2[k] >> 7) << 31 | e << 23 | (uint32_t)(l2[k] & 0x7f) << 16 | (uint32_t)l1[k] << 8 |
                        l0[k]);
    }
  }
  if (ne != t->escapes[c])
    return bad(s, "corrupt: a chunk uses fewer escapes than it declares");
  return 0;
}

/* The frame into area: the chunks through scratch, then the bytes outside the segments. */
static int decode(src *s, const tables *t, uint8_t *area) {
  const glow_wzst_header *h = &t->h;
  if (s->in.pos == s->in.size)
    TRY(refill(s));
  unsigned long long content = ZSTD_getFrameContentSize(s->in.src, s->in.size);
  if (content == ZSTD_CONTENTSIZE_ERROR)
    return bad(s, "corrupt: no zstd frame after the tables");
  if (content == ZSTD_CONTENTSIZE_UNKNOWN)
    return bad(s, "the zstd frame does not state its content size");
  if (content != h->filtered_size)
    return glow_rt_fail(GLOW_RT_ERR_FORMAT, "%s: the zstd frame unpacks to %llu bytes, the header declares %llu%s",
                        s->label, content, (unsigned long long)h->filtered_size,
                        content > h->filtered_size ? " (a decompression bomb?)" : "");
  uint8_t *scratch = NULL;
  if (t->chunks) {
    scratch = malloc((size_t)glow_wzst_chunk_bytes(GLOW_WZST_CHUNK_WORDS, GLOW_WZST_CHUNK_WORDS) + GLOW_WZST_ALIGN);
    if (!scratch)
      return glow_rt_fail(GLOW_RT_ERR_NOMEM, "%s: out of memory", s->label);
  }
  int seg = 0, rc = 0;
  uint64_t first = 0, pos = 0;
  for (uint64_t c = 0; c < t->chunks && !rc; c++) {
    uint64_t n = t->words - c * GLOW_WZST_CHUNK_WORDS, bytes;
    n = n < GLOW_WZST_CHUNK_WORDS ? n : GLOW_WZST_CHUNK_WORDS;
    bytes = glow_wzst_chunk_bytes(n, t->escapes[c]);
    pos += bytes;
    uint64_t pad = (GLOW_WZST_ALIGN - pos % GLOW_WZST_ALIGN) % GLOW_WZST_ALIGN;
    pos += pad;
    rc = produce(s, scratch, bytes);
    rc = rc ? rc : unfilter(s, t, c, scratch, n, area, &seg, &first);
    rc = rc ? rc : produce(s, scratch, pad);
    for (uint64_t i = 0; !rc && i < pad; i++) /* padding is zeros: no byte of the frame goes unchecked */
      if (scratch[i])
        rc = bad(s, "corrupt: padding between chunks is not zero");
  }
  free(scratch);
  for (uint64_t at = 0, i = 0; !rc && i <= h->segments; i++) {
    uint64_t end = i < h->segments ? t->seg[i].offset : h->raw_size;
    rc = produce(s, area + at, end - at);
    at = i < h->segments ? end + 4ull * t->seg[i].words : h->raw_size;
  }
  return rc ? rc : finish(s);
}

static int load(src *s, const glow_bundle *b, glow_weights **out) {
  tables t;
  memset(&t, 0, sizeof t);
  uint8_t *area = NULL;
  int rc = check_header(s, b, &t);
  rc = rc ? rc : read_tables(s, &t);
  if (!rc && !(area = glow_rt_alloc_area(t.h.raw_size, glow_rt_alignment(b))))
    rc = glow_rt_fail(GLOW_RT_ERR_NOMEM, "%s: cannot allocate %llu bytes for the weights", s->label,
                      (unsigned long long)t.h.raw_size);
  if (!rc && !(s->z = ZSTD_createDStream()))
    rc = glow_rt_fail(GLOW_RT_ERR_NOMEM, "%s: cannot create a zstd decoder", s->label);
  if (!rc && ZSTD_isError(ZSTD_DCtx_setParameter(s->z, ZSTD_d_windowLogMax, GLOW_WZST_WINDOW_LOG)))
    rc = glow_rt_fail(GLOW_RT_ERR_NOMEM, "%s: cannot bound the zstd decoder's window", s->label);
  if (!rc) {
    s->frame_left = t.h.frame_size;
    rc = decode(s, &t, area);
  }
  if (!rc && XXH64(area, (size_t)t.h.raw_size, 0) != t.h.checksum)
    rc = glow_rt_fail(GLOW_RT_ERR_CHECKSUM, "%s: checksum mismatch: the unpacked weights are not the ones packed "
                                            "(a damaged file)", s->label);
  ZSTD_freeDStream(s->z);
  free(t.seg);
  free(t.escapes);
  if (rc) {
    free(area);
    return rc;
  }
  return glow_rt_weights_adopt(b, area, out);
}

int glow_weights_load_zst(const glow_bundle *b, const char *path, glow_weights **out) {
  if (!b || !path || !out)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "glow_weights_load_zst: NULL argument");
  *out = NULL;
  src s;
  memset(&s, 0, sizeof s);
  s.label = path;
  struct stat st;
  if (!(s.f = fopen(path, "rb")) || fstat(fileno(s.f), &st))
    return glow_rt_fail(GLOW_RT_ERR_IO, "%s: cannot open weights file: %s", path, strerror(errno));
  s.size = (uint64_t)st.st_size;
  s.cap = ZSTD_DStreamInSize();
  int rc = (s.buf = malloc(s.cap)) ? load(&s, b, out)
                                   : glow_rt_fail(GLOW_RT_ERR_NOMEM, "%s: out of memory", path);
  free(s.buf);
  fclose(s.f);
  return rc;
}

int glow_weights_unpack(const glow_bundle *b, const void *packed, size_t size, glow_weights **out) {
  if (!b || !packed || !out)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "glow_weights_unpack: NULL argument");
  *out = NULL;
  char label[192];
  snprintf(label, sizeof label, "packed weights of bundle '%s'", b->name);
  src s;
  memset(&s, 0, sizeof s);
  s.label = label;
  s.mem = packed;
  s.size = size;
  return load(&s, b, out);
}
