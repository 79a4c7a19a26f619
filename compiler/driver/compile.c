/* The compile pipeline: import, the graph, quant (-load-profile) and codegen passes
 * (passes/pipeline.c), plan, codegen, then every bundle file written to a temporary
 * name and renamed only when all succeeded. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "driver/compile-entries.h"
#include "driver/driver.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *out_path(const glow_driver_options *d, const char *suffix) {
  size_t n = strlen(d->out_dir) + strlen(d->bundle.network_name) + strlen(suffix) + 2;
  char *p = glow_xmalloc(n);
  snprintf(p, n, "%s/%s%s", d->out_dir, d->bundle.network_name, suffix);
  return p;
}

/* All of the bundle's files or none of them; `extra` are more files, named by their paths. */
static int write_bundle(const glow_driver_options *d, const glow_bundle_file *f, int n, const glow_bundle_file *extra,
                        int nextra) {
  glow_outset *os = glow_outset_create();
  int rc = 0;
  for (int i = 0; i < n && !rc; i++) {
    char *p = out_path(d, f[i].suffix);
    rc = glow_outset_write(os, p, f[i].data, f[i].size);
    free(p);
  }
  for (int i = 0; i < nextra && !rc; i++)
    rc = glow_outset_write(os, extra[i].suffix, extra[i].data, extra[i].size);
  rc = rc || glow_outset_commit(os);
  glow_outset_free(os);
  return rc;
}

static int bind_inputs(glow_graph *g, const glow_driver_options *d) {
  for (int b = 0; b < d->nbind; b++)
    if (glow_bind_input(g, d->bind[b]))
      return -1;
  return 0;
}

/* dir/name (malloc'd); dir made absolute first when `absolute` (the working folder's path before it). */
static char *join(const char *dir, const char *name, int absolute) {
  char cwd[PATH_MAX] = "";
  if (absolute && dir[0] != '/' && !getcwd(cwd, sizeof cwd))
    cwd[0] = 0;
  size_t n = strlen(cwd) + strlen(dir) + strlen(name) + 3;
  char *p = glow_xmalloc(n);
  snprintf(p, n, "%s%s%s%s%s", cwd, *cwd ? "/" : "", dir, *name ? "/" : "", name);
  return p;
}

/* -instrument-debug: its folder (made at compile time, as Glow makes it; 1 if it was made
 * now) for the instrument-debug.info written with the bundle; -1 after an error. */
static int make_debug_dir(const char *dir) {
  struct stat st;
  if (!mkdir(dir, 0777))
    return 1;
  if (errno == EEXIST && !stat(dir, &st) && S_ISDIR(st.st_mode))
    return 0;
  glow_error(dir, "-instrument-debug-dir: cannot make this folder: %s", errno == EEXIST ? "a file has its name"
                                                                                       : strerror(errno));
  return -1;
}

static int compile_bundle(const glow_driver_options *d, const char *key);
static int compile_cached(const glow_driver_options *d);

/* -emit-bundle=<dir>, made with its parents as Glow's users expect (mkdir -p); *made
 * is the outermost folder made (NULL: it existed). @return 0, or -1 after an error. */
static int make_out_dir(const char *dir, char **made) {
  struct stat st;
  *made = NULL;
  if (!stat(dir, &st)) {
    if (S_ISDIR(st.st_mode))
      return 0;
    glow_error(dir, "-emit-bundle names a file that is not a directory");
    return -1;
  }
  char *path = glow_xstrdup(dir);
  for (char *p = path + 1;; p++) {
    if (*p && *p != '/')
      continue;
    char c = *p;
    *p = 0;
    if (mkdir(path, 0777) == 0) {
      if (!*made)
        *made = glow_xstrdup(path);
    } else if (errno != EEXIST || stat(path, &st) || !S_ISDIR(st.st_mode)) {
      glow_error(dir, "-emit-bundle: cannot make the folder %s: %s", path, errno == EEXIST ? "a file has its name"
                                                                                          : strerror(errno));
      *p = c;
      free(path);
      return -1;
    }
    *p = c;
    if (!c)
      break;
  }
  free(path);
  return 0;
}

/* A failed compile leaves nothing: the folders it made go (only if empty: rmdir). */
static void remove_made(const char *dir, const char *made) {
  char *path = glow_xstrdup(dir), *slash;
  while (!rmdir(path) && strlen(path) > strlen(made) && (slash = strrchr(path, '/')))
    *slash = 0;
  free(path);
}

/* -dump-ir: the schedule, a step a line: the node, its op, and where each output lives. */
void glow_driver_dump_schedule(const glow_graph *g, const glow_plan *p, FILE *f) {
  static const char *const areas[] = {"-", "constant", "mutable", "activations"};
  fprintf(f, "; schedule: %d steps; constant %llu, mutable %llu, activations %llu bytes\n", p->norder,
          (unsigned long long)p->const_size, (unsigned long long)p->mutable_size, (unsigned long long)p->act_size);
  for (int s = 0; s < p->norder; s++) {
    const glow_node *n = &g->nodes[p->order[s]];
    fprintf(f, "%4d %s (%s)", s, n->name ? n->name : "", glow_op_get(n->op)->onnx_name);
    for (int k = 0; k < n->nout; k++) {
      int id = n->out[k];
      if (id < 0)
        continue;
      char shape[256];
      fprintf(f, "%s %s %s @%s+%llu", k ? "," : " ->", g->vals[id].name, glow_shape_str(&g->vals[id], shape,
              sizeof shape), areas[p->area[id] >= 0 && p->area[id] <= 3 ? p->area[id] : 0],
              (unsigned long long)p->offset[id]);
    }
    fputc('\n', f);
  }
}

/* With a cache: the bundle from the cache if it holds a good entry for these inputs, else compiled and stored. */
int glow_driver_compile(const glow_driver_options *d) {
  char *made = NULL; /* the outermost folder this compile made, removed again if it fails */
  if (make_out_dir(d->out_dir, &made))
    return -1;
  int rc = compile_cached(d);
  if (rc && made)
    remove_made(d->out_dir, made);
  free(made);
  return rc;
}

static int compile_cached(const glow_driver_options *d) {
  /* -dump-* ask to watch the compile itself, so they bypass the cache; so do -instrument-*
   * (files outside the bundle folder). -g is cached: its key holds the folder's path. */
  const glow_bundle_options *b = &d->bundle;
  int cached = (d->cache_dir || d->remote_cache) && !d->dot_file && !d->dot_before && !d->import.tflite.dump_graph &&
               !d->dump_graph && !d->dump_ir && !b->dump_llvm_ir && !b->dump_llvm_asm && !d->passes.dump_after &&
               !b->instrument_ir && !b->instrument_debug;
  char key[65];
  if (!cached || glow_cache_key(d, key))
    return compile_bundle(d, NULL);
  glow_cache_entry e;
  double t0 = now();
  int hit = glow_cache_fetch(d, key, &e);
  if (!hit) {
    if (d->verbose)
      glow_note("glowc: cache miss %s\n", key);
    return compile_bundle(d, key);
  }
  int rc = write_bundle(d, e.files, e.nfiles, NULL, 0);
  if (d->verbose)
    glow_note("glowc: cache hit %s (%s, %.3f s)\n", key, hit == 1 ? d->cache_dir : d->remote_cache, now() - t0);
  glow_cache_entry_free(&e);
  return rc;
}

/* Compiles; with a key, also stores the bundle in the cache. */
static int compile_bundle(const glow_driver_options *d, const char *key) {
  if (d->nentries) /* -entry: several models, an entry each (compile-entries.c) */
    return glow_driver_compile_entries(d, key);
  double t0 = now();
  glow_graph *g = glow_import_model(d->model, d->init_net, &d->import);
  if (!g)
    return -1;
  double t1 = now();
  int rc = -1;
  glow_plan plan;
  memset(&plan, 0, sizeof plan);
  void *obj = NULL, *wbin = NULL, *wzst = NULL;
  size_t obj_size = 0, wbin_size = 0, wzst_size = 0;
  char *asm_text = NULL; /* -llvm-save-asm */
  size_t asm_size = 0;
  glow_strbuf hdr = {0}, wtxt = {0}, listing = {0}, ir_info = {0}, debug_info = {0};
  char *listing_path = NULL, *debug_dir = NULL, *ir_info_path = NULL, *debug_info_path = NULL;
  int made_dir = 0;

  if (d->dot_before && glow_graph_dump_dot(g, d->dot_before))
    goto done;
  if (bind_inputs(g, d) || glow_run_passes(g, &d->passes, GLOW_PASS_GRAPH) ||
      glow_run_passes(g, &d->passes, GLOW_PASS_QUANT))
    goto done;
  /* The conv panels are blocked as the target's register tiles read them (kernels/conv.c). */
  glow_pass_options po = d->passes;
  po.conv_tile_blocks = glow_target_conv_tile_blocks(&d->bundle.target);
  po.conv_winograd = glow_target_winograd(&d->bundle.target);
  if (po.conv_tile_blocks < 0 || glow_run_passes(g, &po, GLOW_PASS_CODEGEN))
    goto done;
  if (d->dot_file && glow_graph_dump_dot(g, d->dot_file))
    goto done;
  if (d->dump_graph)
    glow_graph_dump(g, stdout);
  double t2 = now();
  glow_plan_create(g, &plan);
  if (d->dump_ir)
    glow_driver_dump_schedule(g, &plan, stdout);
  if (d->verbose) {
    int live = 0;
    for (int i = 0; i < g->nnodes; i++)
      live += !g->nodes[i].dead;
    glow_note("glowc: %s: %d nodes after optimization\n", d->model, live);
    glow_note("glowc: memory: constant weights %llu bytes, mutable %llu bytes, activations %llu bytes "
              "(lower bound %llu bytes, %.1f%%)\n",
              (unsigned long long)plan.const_size, (unsigned long long)plan.mutable_size,
              (unsigned long long)plan.act_size, (unsigned long long)plan.act_lower_bound,
              plan.act_lower_bound ? 100.0 * (double)plan.act_size / (double)plan.act_lower_bound : 100.0);
  }
  unsigned w = d->bundle.weights;
  glow_bundle_options bo = d->bundle;
  if (bo.debug_info) { /* the listing's absolute path: gdb finds it from any folder */
    size_t n = strlen(bo.network_name) + 7;
    char *name = glow_xmalloc(n);
    snprintf(name, n, "%s.g.txt", bo.network_name);
    bo.listing_path = listing_path = join(d->out_dir, name, 1);
    free(name);
  }
  if (bo.instrument_debug) /* absolute, as Glow records it: the program may run elsewhere */
    bo.instrument_debug_dir = debug_dir = join(bo.instrument_debug_dir ? bo.instrument_debug_dir : "debug", "", 1);
  if ((w & GLOW_WEIGHTS_ZST) && glow_emit_weights_zst(g, &plan, bo.zst_level, &wzst, &wzst_size))
    goto done;
  double tz = now();
  if (w & GLOW_WEIGHTS_EMBEDDED) { /* embedded,zst: the packed bytes go in the object, not in a file */
    bo.packed = wzst;
    bo.packed_size = wzst_size;
  }
  if (d->save_asm) {
    bo.asm_text = &asm_text;
    bo.asm_size = &asm_size;
  }
  glow_stack_usage stack;
  memset(&stack, 0, sizeof stack);
  bo.stack = glow_driver_wants_stack(d) ? &stack : NULL;
  if (glow_codegen(g, &plan, &bo, &obj, &obj_size) || glow_memory_check(d, &plan, obj, obj_size, wzst_size, bo.stack))
    goto done;
  if (d->nbundle_objects) { /* the object becomes an archive of it and the user's objects */
    void *ar = NULL;
    size_t ar_size = 0;
    if (glow_bundle_archive(d, obj, obj_size, &ar, &ar_size))
      goto done;
    free(obj);
    obj = ar;
    obj_size = ar_size;
  }
  double t3 = now();
  glow_emit_header(g, &plan, &bo, &hdr);
  if (w & GLOW_WEIGHTS_BIN)
    glow_emit_weights_bin(g, &plan, &wbin, &wbin_size);
  if (w & GLOW_WEIGHTS_TXT)
    glow_emit_weights_txt(g, &plan, &wtxt);

  glow_bundle_file files[7] = {{".o", obj, obj_size}, {".h", hdr.s, hdr.len}}, extra[2];
  int nextra = 0;
  int nfiles = 2;
  if (w & GLOW_WEIGHTS_BIN)
    files[nfiles++] = (glow_bundle_file){".weights.bin", wbin, wbin_size};
  if (w & GLOW_WEIGHTS_TXT)
    files[nfiles++] = (glow_bundle_file){".weights.txt", wtxt.s, wtxt.len};
  if (wzst && !(w & GLOW_WEIGHTS_EMBEDDED))
    files[nfiles++] = (glow_bundle_file){".weights.zst", wzst, wzst_size};
  if (asm_text)
    files[nfiles++] = (glow_bundle_file){".s", asm_text, asm_size};
  if (bo.debug_info) {
    glow_emit_listing(g, &plan, &bo, &listing);
    files[nfiles++] = (glow_bundle_file){".g.txt", listing.s, listing.len};
  }
  if (bo.instrument_ir) { /* Glow writes it in its working folder; glowc with the bundle */
    glow_emit_instrument_ir_info(g, &plan, &ir_info);
    extra[nextra++] = (glow_bundle_file){ir_info_path = join(d->out_dir, "instrument-ir.info", 0), ir_info.s, ir_info.len};
  }
  if (bo.instrument_debug && bo.instrument_debug_format && strcmp(bo.instrument_debug_format, "console")) {
    if ((made_dir = make_debug_dir(debug_dir)) < 0)
      goto done;
    glow_emit_instrument_debug_info(g, &plan, &bo, &debug_info);
    debug_info_path = join(debug_dir, "instrument-debug.info", 0);
    extra[nextra++] = (glow_bundle_file){debug_info_path, debug_info.s, debug_info.len};
  }
  if (write_bundle(d, files, nfiles, extra, nextra)) {
    if (made_dir > 0)
      rmdir(debug_dir);
    goto done;
  }
  if (key)
    glow_cache_store(d, key, files, nfiles);
  if (d->verbose)
    glow_note("glowc: time: import %.3f s, passes %.3f s, packing weights %.3f s, codegen %.3f s, total %.3f s\n",
              t1 - t0, t2 - t1, tz - t2, t3 - tz, now() - t0);
  if (d->verbose && wzst)
    glow_note("glowc: weights packed at zstd level %d: %zu of %llu bytes (%.1f%%)\n", bo.zst_level, wzst_size,
              (unsigned long long)plan.const_size, plan.const_size ? 100.0 * (double)wzst_size / (double)plan.const_size : 0.0);
  rc = 0;
done:
  glow_plan_free(&plan);
  glow_graph_free(g);
  free(obj);
  free(wbin);
  free(wzst);
  free(asm_text);
  glow_sb_free(&hdr);
  glow_sb_free(&wtxt);
  glow_sb_free(&listing);
  glow_sb_free(&ir_info);
  glow_sb_free(&debug_info);
  free(listing_path);
  free(debug_dir);
  free(ir_info_path);
  free(debug_info_path);
  return rc;
}
