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

static int write_file(glow_outset *os, const glow_driver_options *d, const char *suffix, const void *data,
                      size_t size) {
  char *p = out_path(d, suffix);
  int rc = glow_outset_write(os, p, data, size);
  free(p);
  return rc;
}

static int bind_inputs(glow_graph *g, const glow_driver_options *d) {
  for (int b = 0; b < d->nbind; b++)
    if (glow_bind_input(g, d->bind[b]))
      return -1;
  return 0;
}

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
  double t0 = now();
  glow_graph *g = glow_import_onnx(d->model, &d->import);
  if (!g)
    return -1;
  double t1 = now();
  int rc = -1;
  glow_plan plan;
  memset(&plan, 0, sizeof plan);
  void *obj = NULL, *wbin = NULL;
  size_t obj_size = 0, wbin_size = 0;
  glow_strbuf hdr = {0}, wtxt = {0};
  glow_outset *os = NULL;

  if (bind_inputs(g, d) || glow_run_passes(g, &d->passes))
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
  if (glow_codegen(g, &plan, &d->bundle, &obj, &obj_size))
    goto done;
  double t3 = now();
  glow_emit_header(g, &plan, &d->bundle, &hdr);
  glow_emit_weights_bin(g, &plan, &wbin, &wbin_size);
  if (!d->bundle.dynamic_api)
    glow_emit_weights_txt(g, &plan, &wtxt);

  os = glow_outset_create();
  if (write_file(os, d, ".o", obj, obj_size) || write_file(os, d, ".h", hdr.s, hdr.len) ||
      write_file(os, d, ".weights.bin", wbin, wbin_size) ||
      (!d->bundle.dynamic_api && write_file(os, d, ".weights.txt", wtxt.s, wtxt.len)) || glow_outset_commit(os))
    goto done;
  if (d->verbose)
    glow_note("glowc: time: import %.3f s, passes %.3f s, codegen %.3f s, total %.3f s\n", t1 - t0, t2 - t1,
              t3 - t2, now() - t0);
  rc = 0;
done:
  glow_outset_free(os);
  glow_plan_free(&plan);
  glow_graph_free(g);
  free(obj);
  free(wbin);
  glow_sb_free(&hdr);
  glow_sb_free(&wtxt);
  return rc;
}
