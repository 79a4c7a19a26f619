/* The compile pipeline: import, passes, plan, codegen, then every bundle file
 * written to a temporary name and renamed only when all succeeded. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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

/* All of the bundle's files or none of them. */
static int write_bundle(const glow_driver_options *d, const glow_bundle_file *f, int n) {
  glow_outset *os = glow_outset_create();
  int rc = 0;
  for (int i = 0; i < n && !rc; i++) {
    char *p = out_path(d, f[i].suffix);
    rc = glow_outset_write(os, p, f[i].data, f[i].size);
    free(p);
  }
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

/* -load-profile: the profile checked against the graph it was taken from (after the
 * passes), then the graph quantized, its int8 weights packed and the float leftovers dropped. */
static int quantize(glow_graph *g, const glow_driver_options *d) {
  glow_profile *p = glow_profile_load(d->load_profile);
  if (p && glow_profile_is_glows(p)) { /* Glow's node names to glowc's value names */
    glow_profile *named = glow_profile_from_glow(p, g, d->load_profile, d->verbose);
    glow_profile_free(p);
    p = named;
  }
  glow_quant_options q = d->quant;
  q.verbose = d->verbose;
  int rc = !p || glow_profile_check(p, g, d->load_profile) || glow_pass_quantize(g, p, &q) ||
           glow_pass_pack_weights(g, &d->passes) || glow_pass_dead_nodes(g, &d->passes) || glow_graph_verify(g);
  glow_profile_free(p);
  if (!rc && d->passes.dump_after && !strcmp(d->passes.dump_after, "quantize")) {
    fprintf(stderr, "; IR after quantize\n");
    glow_graph_dump(g, stderr);
  }
  return rc ? -1 : 0;
}

static int compile_bundle(const glow_driver_options *d, const char *key);

/* With a cache: the bundle from the cache if it holds a good entry for these inputs, else compiled and stored. */
int glow_driver_compile(const glow_driver_options *d) {
  struct stat st;
  if (stat(d->out_dir, &st) != 0) {
    glow_error(d->out_dir, "the -emit-bundle directory does not exist (create it first)");
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    glow_error(d->out_dir, "-emit-bundle names a file that is not a directory");
    return -1;
  }
  /* -dump-* ask to watch the compile itself, so they bypass the cache. */
  int cached = (d->cache_dir || d->remote_cache) && !d->dot_file && !d->passes.dump_after;
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
  int rc = write_bundle(d, e.files, e.nfiles);
  if (d->verbose)
    glow_note("glowc: cache hit %s (%s, %.3f s)\n", key, hit == 1 ? d->cache_dir : d->remote_cache, now() - t0);
  glow_cache_entry_free(&e);
  return rc;
}

/* Compiles; with a key, also stores the bundle in the cache. */
static int compile_bundle(const glow_driver_options *d, const char *key) {
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
  glow_strbuf hdr = {0}, wtxt = {0};

  if (bind_inputs(g, d) || glow_run_passes(g, &d->passes, GLOW_PASS_GRAPH))
    goto done;
  if (d->load_profile && quantize(g, d))
    goto done;
  /* The conv panels are blocked as the target's register tiles read them (kernels/conv.c). */
  glow_pass_options po = d->passes;
  po.conv_wide = glow_target_flag(&d->bundle.target, "x86_zmm");
  if (po.conv_wide < 0 || glow_run_passes(g, &po, GLOW_PASS_CODEGEN))
    goto done;
  if (d->dot_file && glow_graph_dump_dot(g, d->dot_file))
    goto done;
  double t2 = now();
  glow_plan_create(g, &plan);
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
  if ((w & GLOW_WEIGHTS_ZST) && glow_emit_weights_zst(g, &plan, bo.zst_level, &wzst, &wzst_size))
    goto done;
  double tz = now();
  if (w & GLOW_WEIGHTS_EMBEDDED) { /* embedded,zst: the packed bytes go in the object, not in a file */
    bo.packed = wzst;
    bo.packed_size = wzst_size;
  }
  if (glow_codegen(g, &plan, &bo, &obj, &obj_size))
    goto done;
  double t3 = now();
  glow_emit_header(g, &plan, &bo, &hdr);
  if (w & GLOW_WEIGHTS_BIN)
    glow_emit_weights_bin(g, &plan, &wbin, &wbin_size);
  if (w & GLOW_WEIGHTS_TXT)
    glow_emit_weights_txt(g, &plan, &wtxt);

  glow_bundle_file files[5] = {{".o", obj, obj_size}, {".h", hdr.s, hdr.len}};
  int nfiles = 2;
  if (w & GLOW_WEIGHTS_BIN)
    files[nfiles++] = (glow_bundle_file){".weights.bin", wbin, wbin_size};
  if (w & GLOW_WEIGHTS_TXT)
    files[nfiles++] = (glow_bundle_file){".weights.txt", wtxt.s, wtxt.len};
  if (wzst && !(w & GLOW_WEIGHTS_EMBEDDED))
    files[nfiles++] = (glow_bundle_file){".weights.zst", wzst, wzst_size};
  if (write_bundle(d, files, nfiles))
    goto done;
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
  glow_sb_free(&hdr);
  glow_sb_free(&wtxt);
  return rc;
}
