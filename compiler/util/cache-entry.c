/* The compile cache's entry file: the key it was stored under and every
 * bundle file of one compile, each with its SHA-256, so a truncated, flipped,
 * foreign or misfiled entry is refused. Bytes come from disk or the network:
 * the decoder trusts none of them. */
#include <stdlib.h>
#include <string.h>

#include "util/cache-entry.h"

#define ENTRY_MAGIC "GLOWCCE\n"
#define ENTRY_VERSION 2u /* 1 had no key: refused, so recompiled and stored again */
#define KEY_LEN 64

/* Layout: magic, u32 version, the key (64 hex digits), u32 file count, per
 * file {u16 suffix length, suffix, u64 size, sha256}, sha256 of all that; then
 * the files' bytes. Little-endian. The key makes an entry copied (by mistake
 * or malice) under another key a miss, not another model's bundle. */
static void put_bytes(glow_strbuf *b, const void *p, size_t n) {
  if (b->cap - b->len < n + 1) {
    b->cap = (b->len + n + 1) * 2;
    b->s = glow_xrealloc(b->s, b->cap);
  }
  memcpy(b->s + b->len, p, n);
  b->len += n;
}

static void put(glow_strbuf *b, uint64_t v, int bytes) {
  unsigned char t[8];
  for (int i = 0; i < bytes; i++)
    t[i] = (unsigned char)(v >> (8 * i));
  put_bytes(b, t, (size_t)bytes);
}

void glow_cache_entry_encode(const char *key, const glow_bundle_file *f, int n, glow_strbuf *e) {
  unsigned char sum[32];
  GLOW_ASSERT(strlen(key) == KEY_LEN);
  put_bytes(e, ENTRY_MAGIC, 8);
  put(e, ENTRY_VERSION, 4);
  put_bytes(e, key, KEY_LEN);
  put(e, (uint64_t)n, 4);
  for (int i = 0; i < n; i++) {
    put(e, strlen(f[i].suffix), 2);
    put_bytes(e, f[i].suffix, strlen(f[i].suffix));
    put(e, f[i].size, 8);
    glow_sha256(f[i].data, f[i].size, sum);
    put_bytes(e, sum, 32);
  }
  glow_sha256(e->s, e->len, sum);
  put_bytes(e, sum, 32);
  for (int i = 0; i < n; i++)
    put_bytes(e, f[i].data, f[i].size);
}

static uint64_t get(const unsigned char *p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static int safe_suffix(const unsigned char *s, size_t n) {
  if (!n || n > 32 || s[0] != '.')
    return 0;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
      return 0;
  return 1;
}

const char *glow_cache_entry_decode(const void *bytes, size_t size, const char *key, glow_cache_entry *out) {
  const unsigned char *e = bytes;
  memset(out, 0, sizeof *out);
  size_t at = 12 + KEY_LEN + 4;
  if (size < 12 || memcmp(e, ENTRY_MAGIC, 8))
    return "bad magic";
  if (get(e + 8, 4) != ENTRY_VERSION)
    return "unknown entry version";
  if (size < at)
    return "truncated header";
  uint64_t n = get(e + 12 + KEY_LEN, 4);
  if (n > GLOW_CACHE_MAX_FILES)
    return "too many files";
  const unsigned char *sums[GLOW_CACHE_MAX_FILES];
  uint64_t total = 0;
  int wrapped = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (size - at < 2)
      return "truncated header";
    size_t sl = (size_t)get(e + at, 2);
    at += 2;
    if (size - at < sl + 8 + 32)
      return "truncated header";
    if (!safe_suffix(e + at, sl))
      return "bad file name";
    memcpy(out->suffix[i], e + at, sl);
    out->suffix[i][sl] = 0;
    at += sl;
    uint64_t fs = get(e + at, 8);
    wrapped |= fs > UINT64_MAX - total; /* else sizes summing past 2^64 to the bytes there pass */
    total += fs;
    out->files[i].size = (size_t)fs;
    sums[i] = e + at + 8;
    at += 40;
  }
  unsigned char sum[32];
  if (size - at < 32)
    return "truncated header";
  glow_sha256(e, at, sum);
  if (memcmp(sum, e + at, 32))
    return "header checksum mismatch";
  /* After the checksum: a valid entry under the wrong key, not a damaged one. */
  if (strlen(key) != KEY_LEN || memcmp(e + 12, key, KEY_LEN))
    return "entry is for another key (misfiled or poisoned)";
  at += 32;
  if (wrapped || total != size - at)
    return wrapped || total > size - at ? "truncated" : "trailing bytes";
  for (uint64_t i = 0; i < n; i++) {
    out->files[i].suffix = out->suffix[i];
    out->files[i].data = e + at;
    glow_sha256(e + at, out->files[i].size, sum);
    if (memcmp(sum, sums[i], 32))
      return "file checksum mismatch";
    at += out->files[i].size;
  }
  out->nfiles = (int)n;
  return NULL;
}

void glow_cache_entry_free(glow_cache_entry *e) {
  free(e->bytes);
  e->bytes = NULL;
}
