/* glowc-run: runs a bundle built with -bundle-api=dynamic on .npy inputs, writes
 * its outputs as .npy files and reports latency percentiles: checking a bundle
 * without writing C. The bundle's object is linked into a shared object with the
 * C compiler and loaded (dlopen); a CUDA bundle (one with a .glow.ptx section)
 * runs on the first GPU, through the runtime's CUDA instance. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"
#include "glow-runtime.h"

static void usage(FILE *f) {
  fprintf(f,
          "USAGE: glowc-run -bundle=<name>.o [options]\n"
          "Runs a bundle compiled with -bundle-api=dynamic on .npy inputs; writes its outputs as .npy.\n"
          "  -bundle=<file>              The bundle's object (<name>.o, linked here into a shared\n"
          "                              object with $CC, default cc), or such a shared object.\n"
          "                              A CUDA bundle (-target=nvptx64-nvidia-cuda) runs on GPU 0.\n"
          "  -network-name=<name>        The bundle's name (default: the file's, without extension).\n"
          "  -main-entry-name=<name>     Its entry, if not the network name.\n"
          "  -weights=<file>             Its weights, .weights.bin or .weights.zst (default:\n"
          "                              <name>.weights.bin beside the bundle).\n"
          "  -input=<name>=<file.npy>    An input's values, by its name in the model or in the\n"
          "                              symbol table; every input needs one (repeatable).\n"
          "  -output-dir=<dir>           Writes each output to <dir>/<output name>.npy.\n"
          "  -runs=<N>                   Times N runs after 3 untimed ones and prints the latency's\n"
          "                              median, 90th and 99th percentile, minimum and maximum.\n"
          "  -help                       This text.\n");
}

typedef struct {
  const char *name, *path;
} input_arg;

/* A .o becomes <dir>/bundle.so (cc -shared), *dir a new folder under $TMPDIR (else /tmp).
 * Returns the path (malloc'd) or NULL; *dir (malloc'd) is set once the folder exists. */
static char *link_shared(const char *obj, char **dir) {
  const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char *tmpdir = glow_xmalloc(strlen(tmp) + 24);
  sprintf(tmpdir, "%s/glowc-run-XXXXXX", tmp);
  if (!mkdtemp(tmpdir)) {
    glow_error(obj, "cannot make a temporary folder under %s to link it in", tmp);
    free(tmpdir);
    return NULL;
  }
  *dir = tmpdir;
  char *so = glow_xmalloc(strlen(tmpdir) + 16);
  sprintf(so, "%s/bundle.so", tmpdir);
  const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
  pid_t pid = fork();
  if (pid == 0) {
    execlp(cc, cc, "-shared", "-o", so, obj, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
    glow_error(obj, "'%s -shared -o <tmp>.so %s' failed (exit %d): the bundle must be an object of this machine's "
               "architecture with position-independent code (the default; not -relocation-model=static); set CC "
               "to another C compiler", cc, obj, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    free(so);
    return NULL;
  }
  return so;
}

static int is_cuda_bundle(const char *path) {
  uint8_t *data;
  size_t size;
  if (glow_read_file(path, &data, &size))
    return -1;
  int found = memmem(data, size, ".glow.ptx", 10) != NULL;
  free(data);
  return found;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Whether glow_instance_feed(name) fed input t: t's model name is `name`, or no input's is
 * and t's symbol is (the runtime's order). */
static int fed(glow_instance *inst, const char *name, const glow_tensor_ref *t) {
  if (!t->is_input)
    return 0;
  if (!strcmp(t->name, name))
    return 1;
  glow_tensor_ref o = {0};
  for (int i = 0; i < glow_instance_tensor_count(inst); i++)
    if (!glow_instance_tensor(inst, i, &o) && o.is_input && !strcmp(o.name, name))
      return 0;
  return !strcmp(t->symbol, name);
}

static int feed_inputs(glow_instance *inst, const input_arg *in, int nin) {
  int n = glow_instance_tensor_count(inst), rc = 0;
  for (int i = 0; i < nin; i++) {
    glow_npy a;
    if (glow_npy_read(in[i].path, &a)) {
      rc = -1;
      continue;
    }
    if (glow_instance_feed(inst, in[i].name, (int)a.dt, a.rank, a.dims, a.data, a.bytes)) {
      glow_error(in[i].path, "%s", glow_last_error());
      rc = -1;
    }
    glow_npy_free(&a);
  }
  for (int i = 0; i < n; i++) { /* every input given, by the model's name or the symbol */
    glow_tensor_ref t = {0};
    int given = 0;
    glow_instance_tensor(inst, i, &t);
    for (int k = 0; k < nin; k++)
      given |= fed(inst, in[k].name, &t);
    if (t.is_input && !given) {
      glow_error("-input", "no values for input '%s': give -input=%s=<file.npy>", t.name, t.name);
      rc = -1;
    }
  }
  return rc;
}

/* Each output as <dir>/<name>.npy (characters other than letters, digits, '.', '_' and '-' become '_'). */
static int write_outputs(glow_instance *inst, const char *dir) {
  glow_outset *o = glow_outset_create();
  int n = glow_instance_tensor_count(inst), rc = 0;
  for (int i = 0; i < n && !rc; i++) {
    glow_tensor_ref t = {0};
    glow_instance_tensor(inst, i, &t);
    if (t.is_input)
      continue;
    int64_t dims[GLOW_MAX_RANK];
    for (int d = 0; d < t.rank && d < GLOW_MAX_RANK; d++)
      dims[d] = (int64_t)t.dims[d];
    glow_strbuf b = {0}, path = {0};
    glow_sb_printf(&path, "%s/", dir);
    for (const char *c = t.name; *c; c++)
      glow_sb_printf(&path, "%c", isalnum((unsigned char)*c) || strchr("._-", *c) ? *c : '_');
    glow_sb_printf(&path, ".npy");
    if (glow_npy_encode((glow_dtype)t.dtype, t.rank, dims, t.data, t.bytes, &b)) {
      glow_error(t.name, "output of dtype %d has no .npy form", t.dtype);
      rc = -1;
    } else {
      rc = glow_outset_write(o, path.s, b.s, b.len);
      if (!rc)
        printf("output '%s': %s\n", t.name, path.s);
    }
    glow_sb_free(&b);
    glow_sb_free(&path);
  }
  if (!rc)
    rc = glow_outset_commit(o);
  glow_outset_free(o);
  return rc;
}

static int run(glow_instance *inst, const char *what) {
  if (glow_instance_run(inst)) {
    glow_error(what, "%s", glow_last_error());
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *bundle = NULL, *name = NULL, *entry_name = NULL, *weights = NULL, *out_dir = NULL;
  input_arg *in = NULL;
  int nin = 0, runs = 0, bad = 0;
  for (int i = 1; i < argc; i++) {
    const char *v;
    if ((v = glow_option_match(argc, argv, &i, "bundle", 1)))
      bundle = v;
    else if ((v = glow_option_match(argc, argv, &i, "network-name", 1)))
      name = v;
    else if ((v = glow_option_match(argc, argv, &i, "main-entry-name", 1)))
      entry_name = v;
    else if ((v = glow_option_match(argc, argv, &i, "weights", 1)))
      weights = v;
    else if ((v = glow_option_match(argc, argv, &i, "output-dir", 1)))
      out_dir = v;
    else if ((v = glow_option_match(argc, argv, &i, "runs", 1))) {
      char *end;
      long r = strtol(v, &end, 10);
      if (*end || r < 1 || r > 1000000) {
        glow_error("-runs", "'%s' is not a run count (1 to 1000000)", v);
        bad = 1;
      }
      runs = (int)r;
    } else if ((v = glow_option_match(argc, argv, &i, "input", 1))) {
      const char *eq = strrchr(v, '=');
      if (!eq || eq == v || !eq[1]) {
        glow_error("-input", "'%s' is not <name>=<file.npy>", v);
        bad = 1;
        continue;
      }
      in = glow_xrealloc(in, sizeof *in * (size_t)(nin + 1));
      char *n = glow_xstrdup(v);
      n[eq - v] = 0;
      in[nin++] = (input_arg){n, eq + 1};
    } else if (glow_option_match(argc, argv, &i, "help", 0) || glow_option_match(argc, argv, &i, "h", 0)) {
      usage(stdout);
      return 0;
    } else {
      glow_error(argv[i], "unknown option (glowc-run -help lists them)");
      bad = 1;
    }
  }
  if (!bundle && !bad) {
    usage(stderr);
    return 2;
  }
  if (bad)
    return 2;

  /* The names: <name> from <dir>/<name>.o, weights beside it. */
  const char *base = strrchr(bundle, '/') ? strrchr(bundle, '/') + 1 : bundle;
  size_t stem = strcspn(base, ".");
  char *own_name = NULL, *own_weights = NULL;
  if (!name) {
    own_name = glow_xstrdup(base);
    own_name[stem] = 0;
    name = own_name;
  }
  if (!weights) {
    own_weights = glow_xmalloc(strlen(bundle) + strlen(name) + 20);
    sprintf(own_weights, "%.*s%s.weights.bin", (int)(base - bundle), bundle, name);
    weights = own_weights;
  }
  int rc = 1, cuda = is_cuda_bundle(bundle);
  char *tmpdir = NULL, *so = NULL; /* tmpdir: where a .o was linked, removed at the end */
  void *lib = NULL;
  glow_weights *w = NULL;
  glow_instance *inst = NULL;
  size_t len = strlen(bundle);
  if (cuda < 0)
    goto done;
  if (len > 2 && !strcmp(bundle + len - 2, ".o")) {
    so = link_shared(bundle, &tmpdir);
  } else { /* a path, never a library name searched for */
    so = glow_xmalloc(len + 3);
    sprintf(so, "%s%s", strchr(bundle, '/') ? "" : "./", bundle);
  }
  if (!so)
    goto done;
  if (!(lib = dlopen(so, RTLD_NOW | RTLD_LOCAL))) {
    const char *why = dlerror();
    glow_error(bundle, "cannot load it: %s%s", why,
               strstr(why, "glow_tflite_custom_operator") ? " (the model has TFLite custom operators: glowc-run has no "
               "callback for them; link the bundle into a program that defines glow_tflite_custom_operator())" : "");
    goto done;
  }
  char sym[300];
  snprintf(sym, sizeof sym, "%s_config", name);
  glow_bundle b = {name, dlsym(lib, sym), NULL, NULL};
  snprintf(sym, sizeof sym, "%s_tensor_info", name);
  b.tensors = dlsym(lib, sym);
  *(void **)&b.entry = dlsym(lib, entry_name ? entry_name : name);
  if (!b.config || !b.tensors || !b.entry) {
    glow_error(bundle, "defines no %s_config, %s_tensor_info or %s: is it a bundle named '%s' compiled with "
               "-bundle-api=dynamic? (-network-name names another)", name, name, entry_name ? entry_name : name, name);
    goto done;
  }
  size_t wl = strlen(weights);
  int zst = wl > 4 && !strcmp(weights + wl - 4, ".zst");
  if (zst ? glow_weights_load_zst(&b, weights, &w) : glow_weights_load(&b, weights, &w)) {
    glow_error(weights, "%s", glow_last_error());
    goto done;
  }
  if (cuda ? glow_instance_create_cuda(&b, w, 0, &inst) : glow_instance_create(&b, w, &inst)) {
    glow_error(bundle, "%s", glow_last_error());
    goto done;
  }
  if (feed_inputs(inst, in, nin) || run(inst, bundle) || (out_dir && write_outputs(inst, out_dir)))
    goto done;
  if (runs > 0) {
    double *ms = glow_xmalloc(sizeof *ms * (size_t)runs);
    int failed = 0;
    for (int i = 0; i < 3 + runs && !failed; i++) {
      double t0 = now_ms();
      failed = run(inst, bundle);
      if (i >= 3)
        ms[i - 3] = now_ms() - t0;
    }
    if (!failed) {
      qsort(ms, (size_t)runs, sizeof *ms, cmp_double);
      printf("latency over %d runs (%s): median %.3f ms, p90 %.3f ms, p99 %.3f ms, min %.3f ms, max %.3f ms\n", runs,
             cuda ? "GPU 0, inputs in and outputs out each run" : "this thread", ms[runs / 2],
             ms[(size_t)(runs * 0.9)], ms[(size_t)(runs * 0.99)], ms[0], ms[runs - 1]);
    }
    free(ms);
    if (failed)
      goto done;
  }
  rc = 0;
done:
  glow_instance_free(inst);
  glow_weights_free(w);
  if (lib)
    dlclose(lib);
  if (tmpdir) {
    if (so)
      unlink(so);
    rmdir(tmpdir);
    free(tmpdir);
  }
  free(so);
  for (int i = 0; i < nin; i++)
    free((char *)in[i].name);
  free(in);
  free(own_name);
  free(own_weights);
  return rc;
}
