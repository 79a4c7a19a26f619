/* The compile cache: a bundle keyed by a SHA-256 of everything its bytes
 * depend on (model, options, toolchain version, kernel bitcode), kept as one
 * self-checking entry file in a local directory and/or on an HTTP GET/PUT
 * server. Every failure of the cache is a miss: it never fails a compile, and
 * an entry that does not check out is never used. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/driver.h"
#include "target.h"

#define ENTRY_MAGIC "GLOWCCE\n"
#define ENTRY_VERSION 1u

static void *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t n = 0, cap = 1 << 16;
  char *p = glow_xmalloc(cap);
  for (size_t r; (r = fread(p + n, 1, cap - n, f)) > 0;)
    if ((n += r) == cap)
      p = glow_xrealloc(p, cap *= 2);
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(p);
    return NULL;
  }
  *size = n;
  return p;
}

/* One field of the key: its tag, its length, its bytes (so fields cannot run together). */
static void field(glow_sha256_ctx *s, const char *tag, const void *data, size_t size) {
  unsigned char len[8];
  for (int i = 0; i < 8; i++)
    len[i] = (unsigned char)((uint64_t)size >> (8 * i));
  glow_sha256_update(s, tag, strlen(tag) + 1);
  glow_sha256_update(s, len, 8);
  glow_sha256_update(s, data, size);
}

static void field_str(glow_sha256_ctx *s, const char *tag, const char *v) { field(s, tag, v ? v : "", v ? strlen(v) : 0); }

static int field_file(glow_sha256_ctx *s, const char *tag, const char *path) {
  size_t n;
  void *p = read_all(path, &n);
  if (!p)
    return -1;
  field(s, tag, p, n);
  free(p);
  return 0;
}

int glow_cache_key(const glow_driver_options *d, char key[65]) {
  const glow_bundle_options *b = &d->bundle;
  const glow_import_options *im = &d->import;
  const glow_target *tgt = glow_target_for_triple(b->target.triple);
  if (!tgt)
    return -1; /* codegen reports it */
  glow_sha256_ctx s;
  glow_sha256_init(&s);
  field_str(&s, "glowc", GLOWC_VERSION);
  field_str(&s, "kernels", tgt->name);
  field(&s, "bitcode", tgt->bitcode, *tgt->bitcode_size);
  if (field_file(&s, "model", d->model))
    return -1; /* the importer reports it */
  field_str(&s, "network-name", b->network_name);
  field_str(&s, "entry-name", b->entry_name ? b->entry_name : b->network_name);
  field_str(&s, "bundle-api", b->dynamic_api ? "dynamic" : "static");
  field_str(&s, "triple", b->target.triple);
  if (b->target.cpu && !strcmp(b->target.cpu, "native")) {
    /* The key names the machine's actual CPU: a cache shared between machines must not mix them. */
    char *cpu, *features;
    glow_host_cpu(&cpu, &features);
    field_str(&s, "cpu", cpu);
    field_str(&s, "host-features", features);
    free(cpu);
    free(features);
  } else {
    field_str(&s, "cpu", b->target.cpu);
  }
  field_str(&s, "features", b->target.features);
  field_str(&s, "relocation-model", b->target.pic ? "pic" : "static");
  for (int i = 0; i < im->ninputs; i++) {
    char t[64 + 24 * GLOW_MAX_RANK];
    int n = snprintf(t, sizeof t, "%d:%d:", (int)im->input_types[i], im->input_ranks[i]);
    for (int k = 0; k < im->input_ranks[i]; k++)
      n += snprintf(t + n, sizeof t - (size_t)n, "%lld,", (long long)im->input_dims[i][k]);
    field_str(&s, "model-input", im->input_names[i]);
    field_str(&s, "model-input-type", t);
  }
  for (int i = 0; i < im->nsymbols; i++) {
    field_str(&s, "symbol", im->symbol_names[i]);
    field(&s, "symbol-value", &im->symbol_values[i], sizeof im->symbol_values[i]);
  }
  for (int i = 0; i < d->nbind; i++) {
    const char *comma = strchr(d->bind[i], ',');
    field(&s, "bind-input", d->bind[i], (size_t)(comma - d->bind[i]));
    if (field_file(&s, "bind-input-tensor", comma + 1))
      return -1;
  }
  unsigned char digest[32];
  glow_sha256_final(&s, digest);
  glow_sha256_hex(digest, key);
  return 0;
}

/* Entry: magic, u32 version, u32 file count, per file {u16 suffix length,
 * suffix, u64 size, sha256}, sha256 of all that; then the files' bytes.
 * Little-endian. */
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

static void encode(const glow_bundle_file *f, int n, glow_strbuf *e) {
  unsigned char sum[32];
  put_bytes(e, ENTRY_MAGIC, 8);
  put(e, ENTRY_VERSION, 4);
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

/* Checks every byte of an entry; on success the files point into `e`. */
static const char *decode(const unsigned char *e, size_t size, glow_cache_entry *out) {
  size_t at = 16;
  if (size < at || memcmp(e, ENTRY_MAGIC, 8))
    return "bad magic";
  if (get(e + 8, 4) != ENTRY_VERSION)
    return "unknown entry version";
  uint64_t n = get(e + 12, 4);
  if (n > GLOW_CACHE_MAX_FILES)
    return "too many files";
  const unsigned char *sums[GLOW_CACHE_MAX_FILES];
  uint64_t total = 0;
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
    out->files[i].size = (size_t)get(e + at, 8);
    total += out->files[i].size;
    sums[i] = e + at + 8;
    at += 40;
  }
  unsigned char sum[32];
  if (size - at < 32)
    return "truncated header";
  glow_sha256(e, at, sum);
  if (memcmp(sum, e + at, 32))
    return "header checksum mismatch";
  at += 32;
  if (total != size - at)
    return total > size - at ? "truncated" : "trailing bytes";
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

static char *entry_path(const char *dir, const char *key) {
  size_t n = strlen(dir) + 70;
  char *p = glow_xmalloc(n);
  snprintf(p, n, "%s/%.2s/%s", dir, key, key);
  return p;
}

static int decode_owned(void *bytes, size_t size, const char *where, const glow_driver_options *d,
                        glow_cache_entry *e) {
  const char *why = decode(bytes, size, e);
  if (why) {
    if (d->verbose)
      glow_note("glowc: warning: corrupted cache entry %s (%s): not used, recompiling\n", where, why);
    free(bytes);
    return -1;
  }
  e->bytes = bytes;
  return 0;
}

static void store_local(const glow_driver_options *d, const char *key, const void *data, size_t size) {
  char *path = entry_path(d->cache_dir, key), *slash = strrchr(path, '/');
  *slash = 0;
  mkdir(d->cache_dir, 0777);
  int ok = mkdir(path, 0777) == 0 || errno == EEXIST;
  *slash = '/';
  size_t tn = strlen(path) + 32;
  char *tmp = glow_xmalloc(tn);
  snprintf(tmp, tn, "%s.tmp-%ld", path, (long)getpid());
  FILE *f = ok ? fopen(tmp, "wb") : NULL;
  ok = f && fwrite(data, 1, size, f) == size;
  ok &= f && fclose(f) == 0;
  /* rename() is atomic: a concurrent build sees the old entry, the new one, or none. */
  if (!ok || rename(tmp, path)) {
    glow_note("glowc: warning: cannot store %s in the cache: %s\n", path, strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  free(path);
}

int glow_cache_fetch(const glow_driver_options *d, const char *key, glow_cache_entry *e) {
  memset(e, 0, sizeof *e);
  if (d->cache_dir) {
    char *path = entry_path(d->cache_dir, key);
    size_t size;
    void *bytes = read_all(path, &size);
    int hit = bytes && !decode_owned(bytes, size, path, d, e);
    if (bytes && !hit)
      unlink(path);
    free(path);
    if (hit)
      return 1;
  }
  if (d->remote_cache) {
    char err[256];
    void *bytes = NULL;
    size_t size = 0;
    int status = glow_http_request("GET", d->remote_cache, key, NULL, 0, &bytes, &size, err, sizeof err);
    if (status < 0)
      glow_note("glowc: warning: remote cache %s: %s (compiling)\n", d->remote_cache, err);
    else if (status != 200 && status != 404)
      glow_note("glowc: warning: remote cache %s: GET %s: HTTP status %d (compiling)\n", d->remote_cache, key,
                status);
    if (status == 200 && !decode_owned(bytes, size, d->remote_cache, d, e)) {
      if (d->cache_dir)
        store_local(d, key, e->bytes, size);
      return 2;
    }
    if (status != 200)
      free(bytes);
  }
  return 0;
}

void glow_cache_entry_free(glow_cache_entry *e) {
  free(e->bytes);
  e->bytes = NULL;
}

void glow_cache_store(const glow_driver_options *d, const char *key, const glow_bundle_file *files, int n) {
  glow_strbuf e = {0};
  encode(files, n, &e);
  if (d->cache_dir)
    store_local(d, key, e.s, e.len);
  if (d->remote_cache) {
    char err[256];
    int status = glow_http_request("PUT", d->remote_cache, key, e.s, e.len, NULL, NULL, err, sizeof err);
    if (status < 0)
      glow_note("glowc: warning: remote cache %s: %s (not stored)\n", d->remote_cache, err);
    else if (status < 200 || status > 299)
      glow_note("glowc: warning: remote cache %s: PUT %s: HTTP status %d (not stored)\n", d->remote_cache, key,
                status);
  }
  glow_sb_free(&e);
}
