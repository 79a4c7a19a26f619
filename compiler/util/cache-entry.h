/* util/cache-entry.c, the driver's only: the compile cache's self-checking entry file */
#ifndef GLOW_UTIL_CACHE_ENTRY_H
#define GLOW_UTIL_CACHE_ENTRY_H

#include "glowc.h"

/* One bundle file: <out dir>/<network name><suffix>. */
typedef struct glow_bundle_file {
  const char *suffix;
  const void *data;
  size_t size;
} glow_bundle_file;
#define GLOW_CACHE_MAX_FILES 8
/* The largest entry taken from (or sent to) a remote cache: a server claiming more is refused
 * before a byte of body is read. An ONNX model holds at most 2 GiB of weights (protobuf's limit;
 * external data is refused) and a bundle at most about 7 times its weights (.weights.bin,
 * embedded in .o, and .weights.txt at 5 characters a byte), so 16 GiB refuses no bundle glowc can
 * compile while keeping a hostile or broken server's claim of terabytes from being believed. */
#define GLOW_CACHE_MAX_ENTRY_BYTES ((uint64_t)16 << 30)
typedef struct glow_cache_entry {
  int nfiles;
  glow_bundle_file files[GLOW_CACHE_MAX_FILES]; /* point into bytes */
  char suffix[GLOW_CACHE_MAX_FILES][33];
  void *bytes;
} glow_cache_entry;
/* key: the entry's cache key, 64 hex digits; the entry records it. */
void glow_cache_entry_encode(const char *key, const glow_bundle_file *f, int n, glow_strbuf *out);
/* NULL if every byte checks out and the entry is for `key` (the files then point into `bytes`),
 * else why not. */
const char *glow_cache_entry_decode(const void *bytes, size_t size, const char *key, glow_cache_entry *out);
void glow_cache_entry_free(glow_cache_entry *e); /* frees e->bytes */

#endif
