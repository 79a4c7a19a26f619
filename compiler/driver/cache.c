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
#include "passes/plugin.h"
#include "target.h"

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
  char *predict, *init;
  if (glow_caffe2_paths(d->model, d->init_net, &predict, &init)) { /* both nets' bytes; ONNX keys as before */
    int bad = field_file(&s, "caffe2-predict-net", predict) || field_file(&s, "caffe2-init-net", init);
    free(predict);
    free(init);
    if (bad)
      return -1; /* the importer reports it */
  } else if (field_file(&s, "model", d->model)) {
    return -1;
  }
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
  if (b->num_threads > 1) { /* absent when 1: keys of earlier caches stay valid */
    char nt[16];
    snprintf(nt, sizeof nt, "%d", b->num_threads);
    field_str(&s, "num-threads", nt);
  }
  field_str(&s, "relocation-model", b->target.pic < 0 ? "default" : b->target.pic ? "pic" : "static");
  field_str(&s, "float-abi", b->target.float_abi);
  glow_strbuf off = {0}; /* -disable-pass, in the registry's order; absent when none: old keys stay valid */
  for (int i = 0; i < glow_npasses; i++) {
    int first = 1; /* a name listed twice (dead-nodes) counts once */
    for (int k = 0; k < i; k++)
      first &= strcmp(glow_passes[k].name, glow_passes[i].name) != 0;
    if (first && glow_pass_disabled(&d->passes, glow_passes[i].name))
      glow_sb_printf(&off, "%s%s", off.len ? "," : "", glow_passes[i].name);
  }
  if (off.len)
    field_str(&s, "disable-pass", off.s);
  glow_sb_free(&off);
  for (int i = 0; d->plugins && i < d->plugins->nlibs; i++) /* the libraries' bytes, not their paths */
    if (field_file(&s, "pass-plugin", d->plugins->libs[i]))
      return -1;
  for (int i = 0; d->plugins && i < d->plugins->nrun; i++)
    field_str(&s, "pass", d->plugins->run[i]->name);
  if (tgt->hosts) { /* a GPU bundle's object is for the host, which defaults to this machine */
    char *host = b->host_triple ? glow_xstrdup(b->host_triple) : glow_default_triple();
    field_str(&s, "gpu-host", host);
    for (const glow_target_host *h = tgt->hosts; h->triple; h++)
      field(&s, h->triple, h->bitcode, *h->bitcode_size);
    free(host);
  }
  if (d->load_profile) {
    if (field_file(&s, "profile", d->load_profile))
      return -1; /* the compile reports it */
    const glow_quant_options *q = &d->quant;
    char qs[64];
    snprintf(qs, sizeof qs, "%d:%d:%d:%d:%d", (int)q->schema, q->channelwise, q->calibration_kl, q->int16,
             q->bias_int8);
    field_str(&s, "quantization", qs);
    field_str(&s, "keep-original-precision", q->keep_kinds);
  }
  char weights[32];
  if (b->weights & GLOW_WEIGHTS_ZST) /* the level changes the packed bytes */
    snprintf(weights, sizeof weights, "%u:%d", b->weights, b->zst_level);
  else
    snprintf(weights, sizeof weights, "%u", b->weights);
  field_str(&s, "weights", weights);
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

static char *entry_path(const char *dir, const char *key) {
  size_t n = strlen(dir) + 70;
  char *p = glow_xmalloc(n);
  snprintf(p, n, "%s/%.2s/%s", dir, key, key);
  return p;
}

static int decode_owned(void *bytes, size_t size, const char *key, const char *where, const glow_driver_options *d,
                        glow_cache_entry *e) {
  const char *why = glow_cache_entry_decode(bytes, size, key, e);
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
  /* mkdir -p <dir>/<key[0:2]> */
  int ok;
  *slash = 0;
  char *p = path;
  do {
    if ((p = strchr(p + 1, '/')))
      *p = 0;
    ok = mkdir(path, 0777) == 0 || errno == EEXIST;
    if (p)
      *p = '/';
  } while (ok && p);
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
    int hit = bytes && !decode_owned(bytes, size, key, path, d, e);
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
    if (status == 200 && !decode_owned(bytes, size, key, d->remote_cache, d, e)) {
      if (d->cache_dir)
        store_local(d, key, e->bytes, size);
      return 2;
    }
    if (status != 200)
      free(bytes);
  }
  return 0;
}

void glow_cache_store(const glow_driver_options *d, const char *key, const glow_bundle_file *files, int n) {
  glow_strbuf e = {0};
  glow_cache_entry_encode(key, files, n, &e);
  if (d->cache_dir)
    store_local(d, key, e.s, e.len);
  if (d->remote_cache && e.len > GLOW_CACHE_MAX_ENTRY_BYTES) {
    glow_note("glowc: warning: remote cache %s: entry of %zu bytes is over the limit of %llu (not stored)\n",
              d->remote_cache, e.len, (unsigned long long)GLOW_CACHE_MAX_ENTRY_BYTES);
  } else if (d->remote_cache) {
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
