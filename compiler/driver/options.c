/* The tools' command lines, Glow's spelling: -name=value or -name value (one
 * or two leading dashes), flags also as -name=true|false. What each option is
 * comes from options.def; this file walks the arguments, then checks what
 * options mean together and fills in the defaults. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver/option-table.h"
#include "target.h"

static void *field(glow_driver_options *d, const glow_option *o) { return (char *)d + o->field; }

static const char *tool_name(glow_driver_tool tool) {
  return tool == GLOW_TOOL_COMPILER ? "model-compiler" : tool == GLOW_TOOL_PROFILER ? "model-profiler"
                                                                                     : "image-classifier";
}

static int takes_value(const glow_option *o) {
  return o->kind == GLOW_OPT_STRING || o->kind == GLOW_OPT_INT || o->kind == GLOW_OPT_ENUM ||
         (o->kind == GLOW_OPT_CUSTOM && o->takes_value);
}

/* One option's value into d: 0, or -1 after an error. */
static int take(glow_driver_options *d, const glow_option *o, const char *v, int has_eq) {
  switch (o->kind) {
  case GLOW_OPT_FLAG:
    if (!has_eq || !strcmp(v, "true") || !strcmp(v, "1"))
      *(int *)field(d, o) = !o->negated;
    else if (!strcmp(v, "false") || !strcmp(v, "0"))
      *(int *)field(d, o) = o->negated;
    else {
      glow_error(NULL, "-%s takes no value, or true or false; not '%s'", o->name, v);
      return -1;
    }
    return 0;
  case GLOW_OPT_STRING:
    *(const char **)field(d, o) = v;
    return 0;
  case GLOW_OPT_INT: {
    char *end;
    long n = strtol(v, &end, 10);
    char opt[80];
    snprintf(opt, sizeof opt, "-%s", o->name);
    if (!*v || *end || n < o->lo || n > o->hi) {
      glow_error(opt, "'%s' is not a whole number from %ld to %ld", v, o->lo, o->hi);
      return -1;
    }
    *(int *)field(d, o) = (int)n;
    return 0;
  }
  case GLOW_OPT_ENUM: {
    int k = 0;
    for (const char *p = o->values; *p; k++) {
      size_t n = strcspn(p, "|");
      if (strlen(v) == n && !strncmp(p, v, n)) {
        *(int *)field(d, o) = k;
        return 0;
      }
      p += n + (p[n] == '|');
    }
    char opt[80], list[256];
    snprintf(opt, sizeof opt, "-%s", o->name);
    size_t n = 0;
    for (const char *p = o->values; *p && n + 3 < sizeof list; p++)
      n += (size_t)snprintf(list + n, sizeof list - n, *p == '|' ? ", " : "%c", *p);
    glow_error(opt, "'%s' is not one of: %s", v, list);
    return -1;
  }
  case GLOW_OPT_CUSTOM:
    return o->parse(d, v);
  case GLOW_OPT_ALIAS:
  case GLOW_OPT_REFUSED:
    break;
  }
  unreachable();
  return -1;
}

/* An option the tool does not know: the nearest it does, or the tool that takes it. */
static void report_unknown(glow_driver_tool tool, const char *arg, const char *name) {
  for (glow_driver_tool t = GLOW_TOOL_COMPILER; t <= GLOW_TOOL_CLASSIFIER; t++) {
    const glow_option *o = t != tool ? glow_option_find(t, name) : NULL;
    if (o && o->kind != GLOW_OPT_REFUSED) {
      glow_error(NULL, "unknown option '%s': %s takes it, %s does not (see -help)", arg, tool_name(t),
                 tool_name(tool));
      return;
    }
  }
  for (glow_driver_tool t = GLOW_TOOL_COMPILER; t <= GLOW_TOOL_CLASSIFIER; t++) {
    const glow_option *o = t != tool ? glow_option_find(t, name) : NULL;
    if (o && o->kind == GLOW_OPT_REFUSED) { /* Glow's, refused by the other tools: say why */
      char opt[140];
      snprintf(opt, sizeof opt, "-%s", o->name);
      glow_error(opt, "Glow's option, which glowc does not take: %s", o->values);
      return;
    }
  }
  const char *near = glow_option_closest(tool, name);
  if (near)
    glow_error(NULL, "unknown option '%s' (did you mean -%s? see -help)", arg, near);
  else
    glow_error(NULL, "unknown option '%s' (see -help)", arg);
}

/* The arguments into d; 1 if any was wrong (each reported). */
static int parse_args(glow_driver_tool tool, int argc, char **argv, glow_driver_options *d, unsigned char *given) {
  int bad = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || !a[1]) {
      if (tool == GLOW_TOOL_CLASSIFIER && strcmp(a, "-")) {
        d->images = glow_xrealloc(d->images, sizeof *d->images * (size_t)(d->nimages + 1));
        d->images[d->nimages++] = a;
        continue;
      }
      if (tool == GLOW_TOOL_CLASSIFIER)
        glow_error("-", "Glow's streaming mode (file names read from stdin) is not supported: list the images on "
                        "the command line or give -input-image-dir");
      else
        glow_error(NULL, "unexpected argument '%s': options start with '-', e.g. -model=%s (see -help)", a, a);
      bad = 1;
      continue;
    }
    const char *name = a + (a[1] == '-' ? 2 : 1), *eq = strchr(name, '=');
    char key[128];
    snprintf(key, sizeof key, "%.*s", (int)(eq ? (size_t)(eq - name) : strlen(name)), name);
    const glow_option *o = glow_option_find(tool, key);
    if (!o) {
      report_unknown(tool, a, key);
      bad = 1;
      continue;
    }
    if (o->kind == GLOW_OPT_REFUSED) {
      char opt[140];
      snprintf(opt, sizeof opt, "-%s", o->name);
      glow_error(opt, "Glow's option, which glowc does not take: %s", o->values);
      bad = 1;
      continue;
    }
    const char *v = eq ? eq + 1 : "";
    if (takes_value(o) && !eq) {
      if (i + 1 >= argc) {
        glow_error(NULL, "-%s needs a value: -%s=%s", o->name, o->name, o->meta ? o->meta : "<value>");
        bad = 1;
        continue;
      }
      v = argv[++i];
    } else if (!takes_value(o) && eq && o->kind != GLOW_OPT_FLAG) {
      glow_error(NULL, "-%s takes no value (got '%s')", o->name, a);
      bad = 1;
      continue;
    }
    given[o - glow_options] = 1;
    bad |= take(d, o, v, eq != NULL) != 0;
  }
  return bad;
}

/* Default network name: the model file's base name without extension (a Caffe2
 * folder's whole name), as an identifier. */
static char *default_name(const char *model) {
  struct stat st;
  int dir = stat(model, &st) == 0 && S_ISDIR(st.st_mode);
  size_t len = strlen(model);
  while (len > 1 && model[len - 1] == '/')
    len--;
  const char *base = model + len;
  while (base > model && base[-1] != '/')
    base--;
  char *n = glow_xmalloc((size_t)(model + len - base) + 1), *dot;
  memcpy(n, base, (size_t)(model + len - base));
  n[model + len - base] = 0;
  if (!dir && (dot = strrchr(n, '.')) && dot != n)
    *dot = 0;
  for (char *p = n; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_')
      *p = '_';
  return n;
}

static int valid_ident(const char *s) {
  if (!*s || isdigit((unsigned char)*s))
    return 0;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_')
      return 0;
  return 1;
}

/* Glow's -float-abi (default, soft = the FPU with soft-float calls, hard) and glowc's
 * none (no FPU) as the target's float ABI (codegen/target-machine.c): NULL, softfp,
 * hard or soft. */
static int float_abi(glow_driver_options *d) {
  const char *v = d->float_abi_glow;
  if (!v)
    return 0;
  if (!strcmp(v, "default"))
    d->bundle.target.float_abi = NULL;
  else if (!strcmp(v, "soft") || !strcmp(v, "softfp"))
    d->bundle.target.float_abi = "softfp";
  else if (!strcmp(v, "hard"))
    d->bundle.target.float_abi = "hard";
  else if (!strcmp(v, "none"))
    d->bundle.target.float_abi = "soft";
  else {
    glow_error("-float-abi", "'%s' is not default, soft, hard or none (Glow's soft keeps the FPU; none has none)", v);
    return -1;
  }
  return 0;
}

/* Glow's -target=<arch> (or -march) with -mcpu, as the triple glowc has kernels for. */
static int glow_arch(glow_driver_options *d) {
  glow_target_options *t = &d->bundle.target;
  const char *arch = t->triple ? t->triple : d->march;
  if (!arch || strchr(arch, '-') != NULL)
    return 0; /* a triple, or nothing: as given */
  static const struct { const char *arch, *triple; } plain[] = {
      {"x86_64", "x86_64-linux-gnu"},   {"x86-64", "x86_64-linux-gnu"},   {"aarch64", "aarch64-linux-gnu"},
      {"arm64", "aarch64-linux-gnu"},   {"riscv64", "riscv64-linux-gnu"},
  };
  for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++)
    if (!strcmp(arch, plain[k].arch)) {
      t->triple = plain[k].triple;
      return 0;
    }
  if (strcmp(arch, "arm") && strcmp(arch, "thumb")) {
    glow_error("-target", "unknown architecture '%s' (Glow's names glowc takes: x86_64, aarch64, riscv64, and arm or "
               "thumb with -mcpu, e.g. -target=arm -mcpu=cortex-m7; or a triple such as thumbv6m-none-eabi or "
               "armv7-linux-gnueabihf)", arch);
    return -1;
  }
  /* Which 32-bit Arm target serves the CPU: the one whose -mcpu list has it. */
  const char *cpu = t->cpu ? t->cpu : "";
  for (int i = 0; *cpu && i < glow_ntargets; i++) {
    const glow_target *g = glow_targets[i];
    for (const char *const *c = g->cpus; g->glow_triple && c && *c; c++)
      if (!strcmp(*c, cpu)) {
        t->triple = g->glow_triple;
        if (!d->float_abi_glow && g->glow_float_abi)
          d->float_abi_glow = g->glow_float_abi;
        return 0;
      }
  }
  glow_strbuf known = {0};
  for (int i = 0; i < glow_ntargets; i++)
    for (const char *const *c = glow_targets[i]->cpus; glow_targets[i]->glow_triple && c && *c; c++)
      if (strcmp(*c, "generic"))
        glow_sb_printf(&known, "%s%s", known.len ? ", " : "", *c);
  if (!*cpu)
    glow_error("-target", "-target=%s needs -mcpu to pick the 32-bit Arm core (one of %s)", arch, known.s);
  else
    glow_error("-mcpu", "'%s' with -target=%s: glowc has no 32-bit Arm target for that core; it knows %s", cpu, arch,
               known.s);
  glow_sb_free(&known);
  return -1;
}

/* The quantization options (model-compiler, image-classifier) need -load-profile. @return 0 or -1. */
static int check_quant(const glow_driver_options *d) {
  if (d->quant_set && !d->load_profile) {
    glow_error("-load-profile", "the quantization options need a profile: pass -load-profile=<file.yml> (see -help)");
    return -1;
  }
  if (d->quant.int16 && d->quant.calibration_kl) {
    glow_error("-quantization-calibration", "KL picks ranges for 8 bits (a profile's histograms have too few bins "
                                            "for int16's 65536 steps): use it with -quantization-precision=Int8");
    return -1;
  }
  return 0;
}

/* What the options mean together, and the defaults. @return 0 or -1. */
static int finish(glow_driver_tool tool, glow_driver_options *d, const unsigned char *given) {
  int mc = tool == GLOW_TOOL_COMPILER;
  for (int k = 0; k < glow_noptions; k++)
    d->quant_set |= given[k] && glow_options[k].quant;
  if (!d->model && d->nentries) { /* the first -entry is the bundle's first entry */
    const char *first = d->entries[0], *comma = strchr(first, ',');
    d->model = comma + 1;
    d->bundle.entry_name = d->owned_entry = glow_xmalloc((size_t)(comma - first) + 1);
    memcpy(d->owned_entry, first, (size_t)(comma - first));
    d->owned_entry[comma - first] = 0;
    memmove(d->entries, d->entries + 1, sizeof *d->entries * (size_t)--d->nentries);
  }
  if (!d->model) {
    glow_error(NULL, "no model given: pass -model=<file.onnx> or -model=<Caffe2 folder> (see -help)");
    return -1;
  }
  if (tool == GLOW_TOOL_CLASSIFIER)
    return check_quant(d);
  if (!d->dump_profile && !mc) {
    glow_error(NULL, "no profile file given: pass -dump-profile=<file.yml> (see -help)");
    return -1;
  }
  if (!d->dump_profile && d->ndatasets) {
    glow_error("-input-dataset", "calibration data is for profiling: pass -dump-profile=<file.yml> too (see -help)");
    return -1;
  }
  if (d->dump_profile) {
    if (d->out_dir) {
      glow_error("-dump-profile", "profiling runs the model in glowc's interpreter and emits no bundle: drop "
                                  "-emit-bundle (or compile in a second run)");
      return -1;
    }
    return 0;
  }
  if (!d->out_dir && !d->print_cache_key) {
    glow_error(NULL, "no output directory given: pass -emit-bundle=<dir> (see -help)");
    return -1;
  }
  if (check_quant(d))
    return -1;
  if (!d->cache_dir && getenv("GLOWC_CACHE_DIR") && *getenv("GLOWC_CACHE_DIR"))
    d->cache_dir = getenv("GLOWC_CACHE_DIR");
  if (glow_cache_max_size_env(d))
    return -1;
  if (glow_remote_cache_env(d))
    return -1;
  if (!d->bundle.network_name)
    d->bundle.network_name = d->owned_name = default_name(d->model);
  if (!valid_ident(d->bundle.network_name)) {
    glow_error("-network-name", "'%s' is not a C identifier (letters, digits and '_', not starting with a digit)",
               d->bundle.network_name);
    return -1;
  }
  if (d->bundle.entry_name && !valid_ident(d->bundle.entry_name)) {
    glow_error("-main-entry-name", "'%s' is not a C identifier", d->bundle.entry_name);
    return -1;
  }
  if (glow_arch(d) || float_abi(d))
    return -1;
  if (!d->bundle.target.triple)
    d->bundle.target.triple = d->owned_triple = glow_default_triple();
  const glow_target *tgt = glow_target_for_triple(d->bundle.target.triple);
  if ((d->ram_size || d->flash_size) && tgt && tgt->hosts) {
    glow_error(d->ram_size ? "-ram-size" : "-flash-size", "not for GPU bundles (%s): their areas and code live in "
               "the GPU's memory; leave it out", d->bundle.target.triple);
    return -1;
  }
  /* A bundle for the machine glowc runs on gets that machine's CPU unless -mcpu
   * says otherwise; a cross target keeps its portable baseline. */
  if (!d->bundle.target.cpu && glow_triple_is_host(d->bundle.target.triple))
    d->bundle.target.cpu = "native";
  if (!d->bundle.weights)
    d->bundle.weights = GLOW_WEIGHTS_BIN | (d->bundle.dynamic_api ? 0 : GLOW_WEIGHTS_TXT);
  if (d->bundle.zst_level && !(d->bundle.weights & GLOW_WEIGHTS_ZST)) {
    glow_error("-weights-compression-level", "only -weights=zst (or embedded,zst) is compressed; add zst to -weights");
    return -1;
  }
  if (!d->bundle.zst_level)
    d->bundle.zst_level = 3;
  if (!d->bundle.num_threads)
    d->bundle.num_threads = 1;
  if (!d->bundle.thread_min_work)
    d->bundle.thread_min_work = GLOW_THREAD_MIN_WORK;
  d->bundle.nllvm_compiler_opts = d->nllvm_opts;
  d->bundle.llvm_compiler_opts = d->llvm_opts;
  if (!d->bundle.instrument_debug_dir)
    d->bundle.instrument_debug_dir = "debug";
  if (!d->bundle.instrument_debug_format)
    d->bundle.instrument_debug_format = "console";
  return 0;
}

/* -load-profile: the quant stage's options, which travel with the passes' (passes/pipeline.c). */
static void quant_stage(glow_driver_options *d) {
  d->quant.profile_path = d->load_profile;
  d->quant.verbose = d->verbose;
  d->quant.assert_all = d->assert_quantized;
  d->quant.model = d->model;
  d->passes.quant = &d->quant;
}

int glow_driver_parse(glow_driver_tool tool, int argc, char **argv, glow_driver_options *d) {
  memset(d, 0, sizeof *d);
  d->tool = tool;
  d->bundle.target.pic = -1;
  if (tool == GLOW_TOOL_CLASSIFIER)
    d->minibatch = d->topk = 1; /* Glow's defaults: one image a run, one label printed */
  unsigned char *given = glow_xcalloc((size_t)glow_noptions, 1);
  int bad = parse_args(tool, argc, argv, d, given);
  if (!bad && glow_check_disabled_passes(&d->passes))
    bad = 1;
  if (!bad && (d->nload_pass || d->npass_names) && !d->help && !d->version) {
    d->plugins = glow_plugins_load(d->nload_pass, d->load_pass, d->npass_names, d->pass_names);
    d->passes.plugins = d->plugins;
    bad = !d->plugins;
  }
  int rc = bad ? -1 : d->help || d->version || d->print_passes ? 0 : finish(tool, d, given);
  if (!rc && d->load_profile)
    quant_stage(d);
  free(given);
  return rc;
}

void glow_driver_options_free(glow_driver_options *d) {
  glow_import_options *o = &d->import;
  for (int i = 0; i < o->ninputs; i++)
    free((char *)o->input_names[i]);
  for (int i = 0; i < o->nsymbols; i++)
    free((char *)o->symbol_names[i]);
  free(o->input_names);
  free(o->input_types);
  free(o->input_ranks);
  free(o->input_dims);
  free(o->input_scales);
  free(o->input_offsets);
  free(o->symbol_names);
  free(o->symbol_values);
  for (int i = 0; i < d->passes.ndisabled; i++)
    free((char *)d->passes.disabled[i]);
  free(d->passes.disabled);
  for (int i = 0; i < d->npass_names; i++)
    free((char *)d->pass_names[i]);
  free(d->pass_names);
  for (int i = 0; i < d->nbundle_objects; i++)
    free((char *)d->bundle_objects[i]);
  free(d->bundle_objects);
  free(d->llvm_opts);
  free(d->load_pass);
  glow_plugins_free(d->plugins);
  free(d->bind);
  free(d->datasets);
  free(d->images);
  free(d->expected);
  free(d->entries);
  free(d->owned_name);
  free(d->owned_triple);
  free(d->owned_features);
  free(d->owned_remote_cache);
  free(d->remote_headers);
  free(d->owned_keep);
  free(d->owned_entry);
}
