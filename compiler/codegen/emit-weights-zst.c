/* The constant area packed as .weights.zst (runtime/weights-zst-format.h has
 * the format): float32 tensors through the float-lanes filter, then one zstd
 * frame. Deterministic: the same area and level give the same bytes (one
 * thread, fixed parameters). */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <zstd.h>

#include "glowc.h"
#include "weights-zst-format.h"

typedef struct {
  glow_wzst_segment *s;
  int n;
  uint64_t words;
} segs;

static int by_offset(const void *a, const void *b) {
  uint64_t x = ((const glow_wzst_segment *)a)->offset, y = ((const glow_wzst_segment *)b)->offset;
  return x < y ? -1 : x > y;
}

static uint32_t word_at(const uint8_t *p) { return glow_wzst_get32(p); }

/* The float32 constants that the filter helps: sorted, disjoint, and with few
 * escapes (at most one word in 16: zeros and denormals mixed with normals
 * stay raw). */
static void pick_segments(const glow_graph *g, const glow_plan *p, const uint8_t *raw, segs *out) {
  out->s = glow_xmalloc(sizeof *out->s * (size_t)(g->nvals + 1));
  out->n = 0;
  out->words = 0;
  for (int i = 0; i < g->nvals; i++) {
    const glow_value *v = &g->vals[i];
    uint64_t words = glow_value_bytes(v) / 4;
    if (p->area[i] != 1 || v->dt != GLOW_DT_F32 || !words || words > UINT32_MAX)
      continue;
    const uint8_t *w = raw + p->offset[i];
    uint32_t top = 0, esc = 0;
    for (uint64_t k = 0; k < words; k++) {
      uint32_t e = word_at(w + 4 * k) >> 23 & 0xff;
      top = e > top ? e : top;
    }
    for (uint64_t k = 0; k < words; k++)
      esc += top - (word_at(w + 4 * k) >> 23 & 0xff) >= 15;
    if ((uint64_t)esc * 16 > words)
      continue;
    out->s[out->n++] = (glow_wzst_segment){p->offset[i], (uint32_t)words, (uint8_t)top};
  }
  qsort(out->s, (size_t)out->n, sizeof *out->s, by_offset);
  int k = 0; /* constants sharing bytes: the first only */
  for (int i = 0; i < out->n; i++)
    if (!k || out->s[i].offset >= out->s[k - 1].offset + 4ull * out->s[k - 1].words)
      out->s[k++] = out->s[i];
  out->n = k;
  for (int i = 0; i < k; i++)
    out->words += out->s[i].words;
}

/* Word j of the segments' sequence, walking a cursor forward. */
typedef struct {
  const segs *sg;
  const uint8_t *raw;
  int seg;
  uint64_t first; /* sequence index of the cursor segment's first word */
} cursor;

static uint32_t next_word(cursor *c, uint64_t j, uint8_t *top) {
  while (j >= c->first + c->sg->s[c->seg].words)
    c->first += c->sg->s[c->seg++].words;
  const glow_wzst_segment *s = &c->sg->s[c->seg];
  *top = s->top_exponent;
  return word_at(c->raw + s->offset + 4 * (j - c->first));
}

/* The filtered stream (appended to out) and each chunk's escape count. */
static void filter(const segs *sg, const uint8_t *raw, uint64_t raw_size, glow_strbuf *out, uint32_t *escapes) {
  cursor cur = {sg, raw, 0, 0};
  uint64_t chunks = glow_wzst_chunks(sg->words);
  uint8_t *buf = glow_xmalloc(4u * GLOW_WZST_CHUNK_WORDS + GLOW_WZST_ALIGN);
  for (uint64_t c = 0; c < chunks; c++) {
    uint64_t j0 = c * GLOW_WZST_CHUNK_WORDS, n = sg->words - j0 < GLOW_WZST_CHUNK_WORDS ? sg->words - j0
                                                                                            : GLOW_WZST_CHUNK_WORDS;
    uint8_t *l2 = buf, *l1 = buf + n, *l0 = buf + 2 * n, *nib = buf + 3 * n, *esc = nib + (n + 1) / 2;
    memset(nib, 0, (n + 1) / 2);
    uint32_t ne = 0;
    for (uint64_t k = 0; k < n; k++) {
      uint8_t top;
      uint32_t w = next_word(&cur, j0 + k, &top), e = w >> 23 & 0xff, d = top - e;
      l2[k] = (uint8_t)((w >> 31) << 7 | (w >> 16 & 0x7f));
      l1[k] = (uint8_t)(w >> 8);
      l0[k] = (uint8_t)w;
      if (d >= 15) {
        d = 15;
        esc[ne++] = (uint8_t)e;
      }
      nib[k / 2] |= (uint8_t)(d << (4 * (k % 2)));
    }
    escapes[c] = ne;
    glow_sb_append(out, buf, (size_t)glow_wzst_chunk_bytes(n, ne));
    size_t pad = (GLOW_WZST_ALIGN - out->len % GLOW_WZST_ALIGN) % GLOW_WZST_ALIGN;
    memset(buf, 0, pad);
    glow_sb_append(out, buf, pad);
  }
  free(buf);
  uint64_t at = 0; /* then the bytes outside the segments */
  for (int i = 0; i <= sg->n; i++) {
    uint64_t end = i < sg->n ? sg->s[i].offset : raw_size;
    glow_sb_append(out, raw + at, (size_t)(end - at));
    at = i < sg->n ? end + 4ull * sg->s[i].words : raw_size;
  }
}

static int compress(const void *src, size_t size, int level, void **dst, size_t *dst_size) {
  ZSTD_CCtx *z = ZSTD_createCCtx();
  size_t cap = ZSTD_compressBound(size), r = 0;
  *dst = glow_xmalloc(cap ? cap : 1);
  if (!z || ZSTD_isError(r = ZSTD_CCtx_setParameter(z, ZSTD_c_compressionLevel, level)) ||
      ZSTD_isError(r = ZSTD_CCtx_setParameter(z, ZSTD_c_windowLog, GLOW_WZST_WINDOW_LOG)) ||
      ZSTD_isError(r = ZSTD_CCtx_setParameter(z, ZSTD_c_contentSizeFlag, 1)) ||
      ZSTD_isError(r = ZSTD_CCtx_setParameter(z, ZSTD_c_checksumFlag, 0)) ||
      ZSTD_isError(r = ZSTD_compress2(z, *dst, cap, src, size))) {
    glow_error("-weights=zst", "zstd: %s", z ? ZSTD_getErrorName(r) : "cannot create a context");
    ZSTD_freeCCtx(z);
    free(*dst);
    *dst = NULL;
    return -1;
  }
  ZSTD_freeCCtx(z);
  *dst_size = r;
  return 0;
}

int glow_emit_weights_zst(const glow_graph *g, const glow_plan *p, int level, void **data, size_t *size) {
  void *raw;
  size_t raw_size;
  glow_emit_weights_bin(g, p, &raw, &raw_size);
  segs sg;
  pick_segments(g, p, raw, &sg);
  uint64_t chunks = glow_wzst_chunks(sg.words);
  uint32_t *escapes = glow_xcalloc((size_t)chunks + 1, sizeof *escapes);
  glow_strbuf filtered = {0};
  if (sg.n)
    filter(&sg, raw, raw_size, &filtered, escapes);
  else
    glow_sb_append(&filtered, raw, raw_size);
  void *frame = NULL;
  size_t frame_size = 0;
  int rc = compress(filtered.len ? filtered.s : "", filtered.len, level, &frame, &frame_size);
  if (!rc) {
    glow_wzst_header h = {GLOW_WZST_VERSION, GLOW_WZST_CHECKSUM_XXH64,
                          sg.n ? GLOW_WZST_FILTER_FLOAT_LANES : GLOW_WZST_FILTER_NONE, (uint32_t)sg.n,
                          raw_size, GLOW_ALIGN, XXH64(raw, raw_size, 0), filtered.len, frame_size};
    size_t tables = GLOW_WZST_SEGMENT_SIZE * (size_t)sg.n + 4 * (size_t)(sg.n ? chunks : 0);
    *size = GLOW_WZST_HEADER_SIZE + tables + frame_size;
    uint8_t *o = glow_xcalloc(1, *size);
    glow_wzst_header_write(o, &h);
    uint8_t *t = o + GLOW_WZST_HEADER_SIZE;
    for (int i = 0; i < sg.n; i++, t += GLOW_WZST_SEGMENT_SIZE) {
      glow_wzst_put64(t, sg.s[i].offset);
      glow_wzst_put32(t + 8, sg.s[i].words);
      t[12] = sg.s[i].top_exponent;
    }
    for (uint64_t c = 0; sg.n && c < chunks; c++, t += 4)
      glow_wzst_put32(t, escapes[c]);
    memcpy(t, frame, frame_size);
    *data = o;
  }
  free(frame);
  free(raw);
  free(sg.s);
  free(escapes);
  glow_sb_free(&filtered);
  return rc;
}
