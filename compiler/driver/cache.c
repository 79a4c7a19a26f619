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

#include "driver/option-table.h"
#include "plugin/plugin.h"
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

/* An executable named on the command line: its bytes, found as a shell would (a
 * name without '/' through PATH), else its name. */
static void field_tool(glow_sha256_ctx *s, const char *tag, const char *tool) {
  field_str(s, tag, tool);
  if (!tool)
    return;
  if (strchr(tool, '/')) {
    field_file(s, tag, tool);
    return;
  }
  const char *path = getenv("PATH");
  for (const char *p = path ? path : ""; *p;) {
    size_t n = strcspn(p, ":");
    char full[4096];
    snprintf(full, sizeof full, "%.*s/%s", (int)n, p, tool);
    if (!access(full, X_OK) && !field_file(s, tag, full))
      return;
    p += n + (p[n] == ':');
  }
}

/* The options whose key is not their field (options.def's GLOW_KEY_CUSTOM). */
static int key_custom(glow_sha256_ctx *s, const glow_option *o, const glow_driver_options *d) {
  const glow_bundle_options *b = &d->bundle;
  const glow_import_options *im = &d->import;
  const char *n = o->name;
  if (!strcmp(n, "model")) {
    char *predict, *init;
    if (glow_caffe2_paths(d->model, d->init_net, &predict, &init)) { /* both nets' bytes */
      int bad = field_file(s, "caffe2-predict-net", predict) || field_file(s, "caffe2-init-net", init);
      free(predict);
      free(init);
      return bad ? -1 : 0;
    }
    return field_file(s, "model", d->model);
  }
  if (!strcmp(n, "entry")) { /* each entry's name and model bytes */
    for (int i = 0; i < d->nentries; i++) {
      const char *comma = strchr(d->entries[i], ',');
      field(s, "entry", d->entries[i], (size_t)(comma - d->entries[i]));
      char *predict, *init;
      if (glow_caffe2_paths(comma + 1, NULL, &predict, &init)) { /* a Caffe2 folder: both nets' bytes */
        int bad = field_file(s, "entry-predict-net", predict) || field_file(s, "entry-init-net", init);
        free(predict);
        free(init);
        if (bad)
          return -1;
      } else if (field_file(s, "entry-model", comma + 1)) {
        return -1;
      }
    }
    return 0;
  }
  if (!strcmp(n, "g")) { /* the object records the listing's folder, as an absolute path */
    field_str(s, n, b->debug_info ? "1" : "0");
    if (b->debug_info) {
      char cwd[4096];
      field_str(s, "g-folder", d->out_dir[0] == '/' || !getcwd(cwd, sizeof cwd) ? "" : cwd);
      field_str(s, "g-bundle-folder", d->out_dir);
    }
    return 0;
  }
  if (!strcmp(n, "model-input")) {
    for (int i = 0; i < im->ninputs; i++) {
      char t[96 + 24 * GLOW_MAX_RANK];
      int len = snprintf(t, sizeof t, "%d:%d:%.9g:%d:", (int)im->input_types[i], im->input_ranks[i],
                         im->input_scales ? (double)im->input_scales[i] : 0.0,
                         im->input_offsets ? (int)im->input_offsets[i] : 0);
      for (int k = 0; k < im->input_ranks[i]; k++)
        len += snprintf(t + len, sizeof t - (size_t)len, "%lld,", (long long)im->input_dims[i][k]);
      field_str(s, "model-input", im->input_names[i]);
      field_str(s, "model-input-type", t);
    }
    return 0;
  }
  if (!strcmp(n, "onnx-define-symbol")) {
    for (int i = 0; i < im->nsymbols; i++) {
      field_str(s, "symbol", im->symbol_names[i]);
      field(s, "symbol-value", &im->symbol_values[i], sizeof im->symbol_values[i]);
    }
    return 0;
  }
  if (!strcmp(n, "bind-input")) {
    for (int i = 0; i < d->nbind; i++) {
      const char *comma = strchr(d->bind[i], ',');
      field(s, "bind-input", d->bind[i], (size_t)(comma - d->bind[i]));
      if (field_file(s, "bind-input-tensor", comma + 1))
        return -1;
    }
    return 0;
  }
  if (!strcmp(n, "weights")) {
    char w[16];
    snprintf(w, sizeof w, "%u", b->weights);
    field_str(s, n, w);
    return 0;
  }
  if (!strcmp(n, "target")) {
    field_str(s, n, b->target.triple);
    return 0;
  }
  if (!strcmp(n, "cuda-host")) {
    field_str(s, n, b->host_triple);
    if (glow_target_for_triple(b->target.triple)->hosts) { /* a GPU bundle's object is for the host */
      char *host = b->host_triple ? glow_xstrdup(b->host_triple) : glow_default_triple();
      field_str(s, "gpu-host", host);
      for (const glow_target_host *h = glow_target_for_triple(b->target.triple)->hosts; h->triple; h++)
        field(s, h->triple, h->bitcode, *h->bitcode_size);
      free(host);
    }
    return 0;
  }
  if (!strcmp(n, "mcpu")) {
    if (b->target.cpu && !strcmp(b->target.cpu, "native")) {
      /* The key names the machine's actual CPU: a cache shared between machines must not mix them. */
      char *cpu, *features;
      glow_host_cpu(&cpu, &features);
      field_str(s, "cpu", cpu);
      field_str(s, "host-features", features);
      free(cpu);
      free(features);
    } else {
      field_str(s, "cpu", b->target.cpu);
    }
    return 0;
  }
  if (!strcmp(n, "target-feature")) {
    field_str(s, n, b->target.features);
    return 0;
  }
  if (!strcmp(n, "float-abi")) {
    field_str(s, n, b->target.float_abi);
    return 0;
  }
  if (!strcmp(n, "llvm-opt") || !strcmp(n, "llvm-compiler")) {
    field_tool(s, n, !strcmp(n, "llvm-opt") ? b->llvm_opt : b->llvm_compiler);
    return 0;
  }
  if (!strcmp(n, "llvm-compiler-opt")) {
    for (int i = 0; i < d->nllvm_opts; i++)
      field_str(s, n, d->llvm_opts[i]);
    return 0;
  }
  if (!strcmp(n, "disable-pass")) { /* in the registry's order */
    glow_strbuf off = {0};
    for (int i = 0; i < glow_npasses; i++) {
      int first = 1; /* a name listed twice (dead-nodes) counts once */
      for (int k = 0; k < i; k++)
        first &= strcmp(glow_passes[k].name, glow_passes[i].name) != 0;
      if (first && glow_pass_disabled(&d->passes, glow_passes[i].name))
        glow_sb_printf(&off, "%s%s", off.len ? "," : "", glow_passes[i].name);
    }
    field_str(s, n, off.s);
    glow_sb_free(&off);
    return 0;
  }
  if (!strcmp(n, "load-pass")) { /* the libraries' bytes, not their paths */
    for (int i = 0; d->plugins && i < d->plugins->nlibs; i++)
      if (field_file(s, "pass-plugin", d->plugins->libs[i]))
        return -1;
    return 0;
  }
  if (!strcmp(n, "pass")) {
    for (int i = 0; d->plugins && i < d->plugins->nrun; i++)
      field_str(s, "pass", d->plugins->run[i]->name);
    return 0;
  }
  if (!strcmp(n, "keep-original-precision-for-nodes")) {
    field_str(s, n, d->quant.keep_kinds);
    return 0;
  }
  if (!strcmp(n, "instrument-debug-format")) {
    field_str(s, n, b->instrument_debug_format);
    return 0;
  }
  if (!strcmp(n, "tflite-bias-scale-check-max-error")) {
    char e[32];
    snprintf(e, sizeof e, "%.17g", im->tflite.bias_scale_max_error);
    field_str(s, n, e);
    return 0;
  }
  if (!strcmp(n, "bundle-objects")) {
    for (int i = 0; i < d->nbundle_objects; i++)
      if (field_file(s, n, d->bundle_objects[i]))
        return -1;
    return 0;
  }
  if (!strcmp(n, "ram-size") || !strcmp(n, "flash-size")) { /* no byte differs, but the bundle was checked against it */
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)(n[0] == 'r' ? d->ram_size : d->flash_size));
    field_str(s, n, v);
    return 0;
  }
  unreachable(); /* an option marked GLOW_KEY_CUSTOM in options.def with no case here */
  return -1;
}

/* Every option that changes the bundle's bytes, as options.def marks them, with
 * the values the parser resolved (defaults filled in). */
int glow_cache_key(const glow_driver_options *d, char key[65]) {
  const glow_target *tgt = glow_target_for_triple(d->bundle.target.triple);
  if (!tgt)
    return -1; /* codegen reports it */
  glow_sha256_ctx s;
  glow_sha256_init(&s);
  field_str(&s, "glowc", GLOWC_VERSION);
  /* Raised when a bundle's bytes change for the same inputs within one version (2: Glow's legalized
   * symbol names; 3: the header's <NAME>_STACK_SIZE; 4: zmm registers in the out-of-line kernels
   * on Intel's AVX-512 CPUs; 5: 1x1 convs on planes up to 14 x 14 by the conv kernel;
   * 6: x86-64's prefer-vector-width of 512; 7: depthwise convs 16 channels to a vector; 8: broadcast
   * steps split by their output's size; 9: every depthwise conv of 16 channels or more calls the
   * dw16 kernel, which decides; 10: Concat inputs made in place; 11: CUDA bundles' vector loads and
   * stores split before the NVPTX backend, -scalarize-load-store; 12: the kernel library read lazily,
   * which changed how many clang idents some objects' .comment repeats; 13: Winograd only on planes
   * of 400 outputs and more on CPUs with two 512-bit FMAs; 14: convs whose output channels are not
   * a multiple of 16 take packed panels, padded), so that an older entry is never handed out. */
  field_str(&s, "bundle-format", "15");
  field_str(&s, "kernels", tgt->name);
  field(&s, "bitcode", tgt->bitcode, *tgt->bitcode_size);
  for (int i = 0; i < glow_noptions; i++) {
    const glow_option *o = &glow_options[i];
    if (!(o->tools & GLOW_FOR_COMPILER) || o->key == GLOW_KEY_NONE)
      continue;
    const void *f = (const char *)d + o->field;
    char num[24];
    switch (o->key) {
    case GLOW_KEY_VALUE:
      if (o->kind == GLOW_OPT_STRING) {
        field_str(&s, o->name, *(const char *const *)f);
      } else {
        snprintf(num, sizeof num, "%d", *(const int *)f);
        field_str(&s, o->name, num);
      }
      break;
    case GLOW_KEY_FILE:
      if (*(const char *const *)f && field_file(&s, o->name, *(const char *const *)f))
        return -1; /* the compile reports it */
      break;
    case GLOW_KEY_CUSTOM:
      if (key_custom(&s, o, d))
        return -1;
      break;
    case GLOW_KEY_NONE:
      break;
    }
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
  } else {
    glow_cache_local_stored(d); /* counted, and the cache kept within -cache-max-size */
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
    if (hit)
      glow_cache_local_used(path);
    glow_cache_stat_count(d, hit ? GLOW_CACHE_STAT_LOCAL_HIT : GLOW_CACHE_STAT_LOCAL_MISS);
    free(path);
    if (hit)
      return 1;
  }
  if (d->remote_cache && d->remote_cache_mode != GLOW_REMOTE_CACHE_WRITE) {
    void *bytes;
    size_t size;
    int got = glow_remote_cache_get(d, key, &bytes, &size);
    int hit = got == 1 && !decode_owned(bytes, size, key, d->remote_cache, d, e);
    glow_cache_stat_count(d, hit ? GLOW_CACHE_STAT_REMOTE_HIT : got < 0 ? GLOW_CACHE_STAT_REMOTE_ERROR
                                                                       : GLOW_CACHE_STAT_REMOTE_MISS);
    if (hit) {
      if (d->cache_dir)
        store_local(d, key, e->bytes, size);
      return 2;
    }
  }
  return 0;
}

void glow_cache_store(const glow_driver_options *d, const char *key, const glow_bundle_file *files, int n) {
  glow_strbuf e = {0};
  glow_cache_entry_encode(key, files, n, &e);
  if (d->cache_dir)
    store_local(d, key, e.s, e.len);
  if (d->remote_cache && d->remote_cache_mode != GLOW_REMOTE_CACHE_READ)
    glow_remote_cache_put(d, key, e.s, e.len);
  glow_sb_free(&e);
}
