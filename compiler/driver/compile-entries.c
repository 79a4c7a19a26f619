/* -entry: several models compiled into one bundle, an entry function each, as Glow's
 * bundle_with_multiple_entries uses them. Each model is imported, optimized and planned
 * alone; then the areas are laid out for all (entry-layout.c), each entry's module is
 * generated and optimized alone, and the modules are linked into one object
 * (codegen/link-entries.c) with one header, one config and one weights file. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver/compile-entries.h"
#include "target.h"

/* What a bundle of several entries does not take yet, each refused with what to do. */
static int refuse(const glow_driver_options *d) {
  const glow_bundle_options *b = &d->bundle;
  const glow_target *tgt = glow_target_for_triple(b->target.triple);
  const char *opt = NULL, *why = NULL;
  if (tgt && tgt->hosts)
    opt = "-target", why = "GPU bundles have one entry (their host module launches one model's steps)";
  else if (b->weights & GLOW_WEIGHTS_EMBEDDED)
    opt = "-weights", why = "embedded weights are one entry's; the entries read the weights file's area (use "
                            "-weights=bin, txt or zst)";
  else if (b->instrument_ir || b->instrument_debug)
    opt = b->instrument_ir ? "-instrument-ir" : "-instrument-debug",
    why = "the instrumentation's info file numbers one entry's steps";
  else if (d->load_profile)
    opt = "-load-profile", why = "a profile is one model's (its values must match the model's exactly)";
  else if (d->dot_file || d->dot_before || d->import.tflite.dump_graph)
    opt = d->dot_file ? "-dump-graph-DAG" : d->dot_before ? "-dump-graph-DAG-before-compile" : "-tflite-dump-graph",
    why = "it writes one graph's file";
  if (!opt)
    return 0;
  glow_error(opt, "not with -entry: %s; compile each model as a bundle of its own for it", why);
  return -1;
}

/* Entry 0 is -model's (named by -main-entry-name, else the network); then each -entry. */
static glow_entry *list_entries(const glow_driver_options *d, int *n) {
  *n = d->nentries + 1;
  glow_entry *e = glow_xcalloc((size_t)*n, sizeof *e);
  e[0].name = glow_xstrdup(d->bundle.entry_name ? d->bundle.entry_name : d->bundle.network_name);
  e[0].model = d->model;
  e[0].init_net = d->init_net;
  for (int k = 1; k < *n; k++) {
    const char *spec = d->entries[k - 1], *comma = strchr(spec, ',');
    e[k].name = glow_xmalloc((size_t)(comma - spec) + 1);
    memcpy(e[k].name, spec, (size_t)(comma - spec));
    e[k].name[comma - spec] = 0;
    e[k].model = comma + 1;
  }
  return e;
}

/* Every entry's function has a name of its own, which no other symbol of the bundle has. */
static int check_entry_names(const glow_driver_options *d, const glow_entry *e, int n) {
  const char *net = d->bundle.network_name;
  size_t len = strlen(net);
  int rc = 0;
  for (int k = 0; k < n; k++) {
    for (int i = 0; i < k; i++)
      if (!strcmp(e[i].name, e[k].name)) {
        glow_error("-entry", "two entries are named '%s' (models %s and %s): each entry function needs a name of its "
                   "own", e[k].name, e[i].model, e[k].model);
        rc = -1;
      }
    const char *tail = !strncmp(e[k].name, net, len) ? e[k].name + len : "";
    if (d->bundle.dynamic_api && (!strcmp(tail, "_config") || !strcmp(tail, "_tensor_info"))) {
      glow_error("-entry", "the entry '%s' (%s) has the name of the bundle's %s symbol; name the entry otherwise",
                 e[k].name, e[k].model, tail + 1);
      rc = -1;
    }
  }
  return rc;
}

static int has_name(char *const *names, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(names[i], name))
      return 1;
  return 0;
}

/* -model-input: each entry's import takes the options that name one of its model's inputs
 * (opts[k], arrays malloc'd); used[i]: option i went to some model. @return 0, or -1 after
 * reporting a model that cannot be read. */
static int split_model_inputs(const glow_driver_options *d, const glow_entry *e, int n, glow_import_options *opts,
                              int *used) {
  const glow_import_options *im = &d->import;
  int rc = 0;
  for (int k = 0; k < n; k++) {
    opts[k] = *im;
    if (!im->ninputs)
      continue;
    char **names = NULL;
    int nnames = 0;
    if (glow_model_input_names(e[k].model, e[k].init_net, im, &names, &nnames))
      rc = -1;
    opts[k].ninputs = 0;
    opts[k].input_names = glow_xmalloc(sizeof *opts[k].input_names * (size_t)im->ninputs);
    opts[k].input_types = glow_xmalloc(sizeof *opts[k].input_types * (size_t)im->ninputs);
    opts[k].input_ranks = glow_xmalloc(sizeof *opts[k].input_ranks * (size_t)im->ninputs);
    opts[k].input_dims = glow_xmalloc(sizeof *opts[k].input_dims * (size_t)im->ninputs);
    opts[k].input_scales = im->input_scales ? glow_xmalloc(sizeof *opts[k].input_scales * (size_t)im->ninputs) : NULL;
    opts[k].input_offsets = im->input_offsets ? glow_xmalloc(sizeof *opts[k].input_offsets * (size_t)im->ninputs)
                                              : NULL;
    for (int i = 0; i < im->ninputs; i++) {
      if (!has_name(names, nnames, im->input_names[i]))
        continue;
      int j = opts[k].ninputs++;
      used[i] = 1;
      opts[k].input_names[j] = im->input_names[i];
      opts[k].input_types[j] = im->input_types[i];
      opts[k].input_ranks[j] = im->input_ranks[i];
      memcpy(opts[k].input_dims[j], im->input_dims[i], sizeof *im->input_dims);
      if (im->input_scales)
        opts[k].input_scales[j] = im->input_scales[i];
      if (im->input_offsets)
        opts[k].input_offsets[j] = im->input_offsets[i];
    }
    for (int j = 0; j < nnames; j++)
      free(names[j]);
    free(names);
  }
  return rc;
}

/* Every -model-input went to a model; else -1 after naming each entry's inputs. */
static int check_model_inputs(const glow_driver_options *d, const glow_entry *e, int n, const int *used) {
  int rc = 0;
  for (int i = 0; i < d->import.ninputs; i++) {
    if (used[i])
      continue;
    glow_strbuf list = {0};
    for (int k = 0; k < n; k++) {
      glow_sb_printf(&list, "%s%s (%s):", k ? "; " : "", e[k].name, e[k].model);
      for (int j = 0; j < e[k].g->ninputs; j++)
        glow_sb_printf(&list, " '%s'", e[k].g->vals[e[k].g->inputs[j]].name);
    }
    glow_error("-model-input", "'%s' is an input of none of the entries' models; their inputs: %s",
               d->import.input_names[i], list.s);
    glow_sb_free(&list);
    rc = -1;
  }
  return rc;
}

static void free_split(glow_import_options *opts, int n, int split) {
  for (int k = 0; k < n && split; k++) {
    free(opts[k].input_names);
    free(opts[k].input_types);
    free(opts[k].input_ranks);
    free(opts[k].input_dims);
    free(opts[k].input_scales);
    free(opts[k].input_offsets);
  }
}

/* -bind-input: each binds the input of that name in every entry that has one; it must name
 * one in some entry. */
static int bind_inputs(const glow_driver_options *d, glow_entry *e, int n) {
  for (int b = 0; b < d->nbind; b++) {
    const char *spec = d->bind[b], *comma = strchr(spec, ',');
    int found = 0;
    for (int k = 0; k < n && comma; k++)
      for (int i = 0; i < e[k].g->ninputs; i++) {
        const char *name = e[k].g->vals[e[k].g->inputs[i]].name;
        if (strncmp(name, spec, (size_t)(comma - spec)) || name[comma - spec])
          continue;
        if (glow_bind_input(e[k].g, spec))
          return -1;
        found = 1;
        break;
      }
    if (!found) { /* the message for a malformed value or a name no entry has */
      glow_error("-bind-input", "'%s': no entry's model has an input of that name", spec);
      return -1;
    }
  }
  return 0;
}

/* One entry's graph to its plan: the passes and the plan, as compile.c's compile_bundle. */
static int optimize(const glow_driver_options *d, glow_entry *e) {
  if (glow_run_passes(e->g, &d->passes, GLOW_PASS_GRAPH))
    return -1;
  glow_pass_options po = d->passes;
  po.conv_tile_blocks = glow_target_conv_tile_blocks(&d->bundle.target);
  po.conv_winograd = glow_target_winograd(&d->bundle.target);
  if (po.conv_tile_blocks < 0 || glow_run_passes(e->g, &po, GLOW_PASS_CODEGEN))
    return -1;
  if (d->dump_graph) {
    printf("; entry %s\n", e->name);
    glow_graph_dump(e->g, stdout);
  }
  return glow_plan_create(e->g, &e->plan) ? -1 : 0;
}

static char *absolute_path(const char *dir, const char *name) {
  char cwd[PATH_MAX] = "";
  if (dir[0] != '/' && !getcwd(cwd, sizeof cwd))
    cwd[0] = 0;
  glow_strbuf b = {0};
  glow_sb_printf(&b, "%s%s%s/%s", cwd, *cwd ? "/" : "", dir, name);
  return b.s;
}

/* Each entry's module: its own codegen and optimization, kept as bitcode for the link. */
static int generate(const glow_driver_options *d, glow_entry *e) {
  glow_bundle_options bo = d->bundle;
  bo.entry_name = e->name;
  bo.module_only = 1;
  bo.dynamic_api = 0; /* the config is the link's: all entries' symbols */
  bo.asm_text = NULL;
  bo.asm_size = NULL;
  if (bo.debug_info) { /* a listing each, named by the entry */
    glow_strbuf s = {0};
    glow_sb_printf(&s, ".%s.g.txt", e->name);
    e->listing_suffix = s.s;
    glow_strbuf f = {0};
    glow_sb_printf(&f, "%s%s", bo.network_name, e->listing_suffix);
    bo.listing_path = e->listing_path = absolute_path(d->out_dir, f.s);
    glow_sb_free(&f);
    glow_emit_listing(e->g, &e->plan, &bo, &e->listing);
  }
  int rc = glow_codegen(e->g, &e->plan, &bo, &e->module, &e->module_size);
  if (rc)
    glow_error(e->model, "entry '%s' of bundle '%s' did not compile (above)", e->name, bo.network_name);
  return rc;
}

/* All of the bundle's files or none of them. */
static int write_files(const glow_driver_options *d, const glow_bundle_file *f, int n) {
  glow_outset *os = glow_outset_create();
  int rc = 0;
  for (int i = 0; i < n && !rc; i++) {
    glow_strbuf p = {0};
    glow_sb_printf(&p, "%s/%s%s", d->out_dir, d->bundle.network_name, f[i].suffix);
    rc = glow_outset_write(os, p.s, f[i].data, f[i].size);
    glow_sb_free(&p);
  }
  rc = rc || glow_outset_commit(os);
  glow_outset_free(os);
  return rc;
}

typedef struct {
  void *obj, *wbin, *wzst;
  size_t obj_size, wbin_size, wzst_size;
  char *asm_text;
  size_t asm_size;
  glow_strbuf hdr, wtxt, note;
} bundle_bytes;

/* The bundle's object, header and weights, from the entries laid out in one set of areas. */
static int make_bundle(const glow_driver_options *d, glow_entry *e, int n, bundle_bytes *out) {
  glow_graph u;
  glow_plan up;
  glow_entries_union(e, n, &u, &up);
  const glow_bundle_options *b = &d->bundle;
  int rc = -1;
  void **modules = glow_xmalloc(sizeof *modules * (size_t)n);
  size_t *sizes = glow_xmalloc(sizeof *sizes * (size_t)n);
  const char **names = glow_xmalloc(sizeof *names * (size_t)n);
  for (int k = 0; k < n; k++) {
    modules[k] = e[k].module;
    sizes[k] = e[k].module_size;
    names[k] = e[k].name;
  }
  glow_bundle_options lo = *b;
  if (d->save_asm) {
    lo.asm_text = &out->asm_text;
    lo.asm_size = &out->asm_size;
  }
  if ((b->weights & GLOW_WEIGHTS_ZST) && glow_emit_weights_zst(&u, &up, b->zst_level, &out->wzst, &out->wzst_size))
    goto done;
  glow_stack_usage stack;
  memset(&stack, 0, sizeof stack);
  lo.stack = glow_driver_wants_stack(d) ? &stack : NULL;
  if (glow_codegen_link(&u, &up, &lo, modules, sizes, n, &out->obj, &out->obj_size) ||
      glow_memory_check(d, &e[0].plan, out->obj, out->obj_size, out->wzst_size, lo.stack))
    goto done;
  glow_entries_note(e, n, &u, &out->note);
  glow_bundle_options ho = *b;
  ho.stack = lo.stack;
  ho.nentries = n;
  ho.entries = names;
  ho.entries_note = out->note.s;
  glow_strbuf decls = {0};
  for (int k = 0; k < n; k++)
    glow_emit_extern_decls(&decls, e[k].g, &e[k].plan);
  ho.extern_decls = decls.s ? decls.s : "";
  glow_emit_header(&u, &up, &ho, &out->hdr);
  glow_sb_free(&decls);
  if (b->weights & GLOW_WEIGHTS_BIN)
    glow_emit_weights_bin(&u, &up, &out->wbin, &out->wbin_size);
  if (b->weights & GLOW_WEIGHTS_TXT)
    glow_emit_weights_txt(&u, &up, &out->wtxt);
  rc = 0;
done:
  free(modules);
  free(sizes);
  free(names);
  glow_entries_union_free(&u, &up);
  return rc;
}

/* Every entry's model to its plan, the plans laid out in one set of areas. */
static int plan_entries(const glow_driver_options *d, glow_entry *e, int n) {
  glow_import_options *opts = glow_xmalloc(sizeof *opts * (size_t)n);
  int *used = glow_xcalloc((size_t)d->import.ninputs + 1, sizeof *used);
  int rc = split_model_inputs(d, e, n, opts, used);
  for (int k = 0; k < n && !rc; k++)
    if ((rc = (e[k].g = glow_import_model(e[k].model, e[k].init_net, &opts[k])) ? 0 : -1))
      glow_error(e[k].model, "entry '%s' of bundle '%s' did not compile (above)", e[k].name, d->bundle.network_name);
  rc = rc || check_model_inputs(d, e, n, used);
  free_split(opts, n, d->import.ninputs > 0);
  free(opts);
  free(used);
  if (rc || bind_inputs(d, e, n))
    return -1;
  for (int k = 0; k < n; k++)
    if (optimize(d, &e[k])) {
      glow_error(e[k].model, "entry '%s' of bundle '%s' did not compile (above)", e[k].name, d->bundle.network_name);
      return -1;
    }
  if (glow_entries_check_names(e, n))
    return -1;
  glow_entries_layout(e, n);
  for (int k = 0; k < n; k++) {
    if (d->dump_ir) {
      printf("; entry %s\n", e[k].name);
      glow_driver_dump_schedule(e[k].g, &e[k].plan, stdout);
    }
    if (d->verbose) {
      int live = 0;
      for (int i = 0; i < e[k].g->nnodes; i++)
        live += !e[k].g->nodes[i].dead;
      glow_note("glowc: entry %s (%s): %d nodes after optimization\n", e[k].name, e[k].model, live);
    }
  }
  if (d->verbose)
    glow_note("glowc: memory for %d entries: constant weights %llu bytes, mutable %llu bytes, activations %llu bytes "
              "(shared)\n", n, (unsigned long long)e[0].plan.const_size, (unsigned long long)e[0].plan.mutable_size,
              (unsigned long long)e[0].plan.act_size);
  return 0;
}

int glow_driver_compile_entries(const glow_driver_options *d, const char *key) {
  if (refuse(d))
    return -1;
  int n;
  glow_entry *e = list_entries(d, &n);
  int rc = -1;
  bundle_bytes out;
  memset(&out, 0, sizeof out);
  if (check_entry_names(d, e, n) || plan_entries(d, e, n))
    goto done;
  for (int k = 0; k < n; k++)
    if (generate(d, &e[k]))
      goto done;
  if (make_bundle(d, e, n, &out))
    goto done;
  if (d->nbundle_objects) { /* the object becomes an archive of it and the user's objects */
    void *ar = NULL;
    size_t ar_size = 0;
    if (glow_bundle_archive(d, out.obj, out.obj_size, &ar, &ar_size))
      goto done;
    free(out.obj);
    out.obj = ar;
    out.obj_size = ar_size;
  }
  unsigned w = d->bundle.weights;
  int nfiles = 0;
  glow_bundle_file *files = glow_xmalloc(sizeof *files * (size_t)(6 + n));
  files[nfiles++] = (glow_bundle_file){".o", out.obj, out.obj_size};
  files[nfiles++] = (glow_bundle_file){".h", out.hdr.s, out.hdr.len};
  if (w & GLOW_WEIGHTS_BIN)
    files[nfiles++] = (glow_bundle_file){".weights.bin", out.wbin, out.wbin_size};
  if (w & GLOW_WEIGHTS_TXT)
    files[nfiles++] = (glow_bundle_file){".weights.txt", out.wtxt.s, out.wtxt.len};
  if (out.wzst)
    files[nfiles++] = (glow_bundle_file){".weights.zst", out.wzst, out.wzst_size};
  if (out.asm_text)
    files[nfiles++] = (glow_bundle_file){".s", out.asm_text, out.asm_size};
  for (int k = 0; k < n && d->bundle.debug_info; k++)
    files[nfiles++] = (glow_bundle_file){e[k].listing_suffix, e[k].listing.s, e[k].listing.len};
  rc = write_files(d, files, nfiles);
  if (!rc && key && !d->bundle.debug_info) /* the cache holds no entry's listing (.<entry>.g.txt) */
    glow_cache_store(d, key, files, nfiles);
  free(files);
done:
  for (int k = 0; k < n; k++) {
    free(e[k].name);
    if (e[k].g) {
      glow_plan_free(&e[k].plan);
      glow_graph_free(e[k].g);
    }
    free(e[k].module);
    free(e[k].listing_path);
    free(e[k].listing_suffix);
    glow_sb_free(&e[k].listing);
  }
  free(e);
  free(out.obj);
  free(out.wbin);
  free(out.wzst);
  free(out.asm_text);
  glow_sb_free(&out.hdr);
  glow_sb_free(&out.wtxt);
  glow_sb_free(&out.note);
  return rc;
}
