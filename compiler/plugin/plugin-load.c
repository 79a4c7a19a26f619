/* -load-pass: graph-pass plugins opened with dlopen, their ABI version checked
 * before any of their code runs, their passes registered; -pass picks the ones
 * that run. */
#include <ctype.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plugin/plugin.h"

static int valid_name(const char *s) {
  if (!s || !*s)
    return 0;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
      return 0;
  return 1;
}

static const glow_plugin_pass *find_pass(const glow_plugins *p, const char *name) {
  for (int i = 0; i < p->npasses; i++)
    if (!strcmp(p->passes[i].name, name))
      return &p->passes[i];
  return NULL;
}

int glow_plugin_register(glowc_pass_registry *r, const char *name, const char *what, glowc_pass_fn run, void *user) {
  if (!r || !r->p) {
    glow_error(r ? r->lib : NULL, "register_pass called outside glowc_pass_plugin_init");
    return -1;
  }
  glow_plugins *p = r->p;
  const char *why = NULL;
  if (!valid_name(name))
    why = "a pass name is letters, digits, '_', '.' and '-'";
  else if (!run)
    why = "its function is NULL";
  else if (find_pass(p, name))
    why = "a pass of that name is loaded already";
  for (int i = 0; !why && i < glow_npasses; i++)
    if (!strcmp(glow_passes[i].name, name))
      why = "glowc has a pass of that name";
  if (why) {
    glow_error(r->lib, "cannot register pass '%s': %s", name ? name : "(null)", why);
    r->failed = 1;
    return -1;
  }
  p->passes = glow_xrealloc(p->passes, sizeof *p->passes * (size_t)(p->npasses + 1));
  p->passes[p->npasses++] = (glow_plugin_pass){glow_xstrdup(name), glow_xstrdup(what ? what : ""), r->lib, run, user};
  return 0;
}

static int load_one(glow_plugins *p, const char *lib) {
  struct stat st;
  if (stat(lib, &st) || !S_ISREG(st.st_mode)) {
    glow_error(lib, "-load-pass: no such plugin file (give the path of the shared library)");
    return -1;
  }
  /* A bare name would make dlopen search the library path instead of this file. */
  glow_strbuf path = {0};
  glow_sb_printf(&path, "%s%s", strchr(lib, '/') ? "" : "./", lib);
  void *h = dlopen(path.s, RTLD_NOW | RTLD_LOCAL);
  glow_sb_free(&path);
  if (!h) {
    glow_error(lib, "-load-pass: cannot load the plugin: %s", dlerror());
    return -1;
  }
  p->handles[p->nlibs] = h;
  p->libs[p->nlibs++] = lib;
  const uint32_t *abi = dlsym(h, "glowc_pass_abi_version");
  if (!abi) {
    glow_error(lib, "not a glowc pass plugin: it defines no glowc_pass_abi_version (define its entry with "
                    "GLOWC_PASS_PLUGIN from glowc-pass.h)");
    return -1;
  }
  if (*abi != GLOWC_PASS_ABI_VERSION) {
    glow_error(lib, "the plugin was built for glowc pass ABI version %u; this glowc %s has version %d: rebuild it "
                    "against this glowc's glowc-pass.h",
               (unsigned)*abi, GLOWC_VERSION, GLOWC_PASS_ABI_VERSION);
    return -1;
  }
  int (*init)(const glowc_pass_api *, glowc_pass_registry *);
  *(void **)&init = dlsym(h, "glowc_pass_plugin_init");
  if (!init) {
    glow_error(lib, "the plugin defines glowc_pass_abi_version but no glowc_pass_plugin_init (define its entry "
                    "with GLOWC_PASS_PLUGIN from glowc-pass.h)");
    return -1;
  }
  glowc_pass_registry r = {p, lib, 0};
  int before = p->npasses;
  int rc = glow_plugin_guarded_init(lib, init, &r);
  r.p = NULL; /* registration ends with init */
  if (rc || r.failed) {
    if (rc)
      glow_error(lib, "its glowc_pass_plugin_init failed (returned %d)", rc);
    return -1;
  }
  if (p->npasses == before)
    glow_warning(lib, "the plugin registered no pass");
  return 0;
}

glow_plugins *glow_plugins_load(int nlibs, const char *const *libs, int npass, const char *const *pass) {
  if (!nlibs && !npass)
    return NULL;
  glow_plugins *p = glow_xcalloc(1, sizeof *p);
  p->handles = glow_xcalloc((size_t)nlibs + 1, sizeof *p->handles);
  p->libs = glow_xcalloc((size_t)nlibs + 1, sizeof *p->libs);
  int bad = 0;
  for (int i = 0; i < nlibs && !bad; i++)
    bad = load_one(p, libs[i]) != 0;
  p->run = glow_xcalloc((size_t)(npass ? npass : p->npasses) + 1, sizeof *p->run);
  for (int i = 0; i < npass && !bad; i++) {
    const glow_plugin_pass *pp = find_pass(p, pass[i]);
    if (!pp) {
      glow_strbuf have = {0};
      for (int k = 0; k < p->npasses; k++)
        glow_sb_printf(&have, "%s%s", k ? ", " : "", p->passes[k].name);
      glow_error("-pass", "no plugin pass '%s' (%s%s)", pass[i], nlibs ? "the loaded plugins have: " : "load its "
                 "plugin with -load-pass=<lib.so>", nlibs ? (have.s ? have.s : "none") : "");
      glow_sb_free(&have);
      bad = 1;
    }
    p->run[p->nrun++] = pp;
  }
  for (int i = 0; i < p->npasses && !npass; i++)
    p->run[p->nrun++] = &p->passes[i];
  if (bad) {
    glow_plugins_free(p);
    return NULL;
  }
  return p;
}

void glow_plugins_free(glow_plugins *p) {
  if (!p)
    return;
  for (int i = 0; i < p->npasses; i++) {
    free(p->passes[i].name);
    free(p->passes[i].what);
  }
  /* The libraries stay loaded: a plugin may have left atexit handlers or thread-locals. */
  free(p->passes);
  free(p->run);
  free(p->handles);
  free(p->libs);
  free(p);
}

void glow_print_plugin_passes(FILE *f, const glow_plugins *p) {
  for (int i = 0; i < p->nrun; i++) {
    glow_strbuf what = {0};
    glow_sb_printf(&what, "%s [%s]", p->run[i]->what, p->run[i]->lib);
    fprintf(f, "  %-20s %-9s %-8s %s\n", p->run[i]->name, "plugin", "", what.s);
    glow_sb_free(&what);
  }
  if (!p->nrun)
    fprintf(f, "  %-20s %-9s %-8s %s\n", "(plugins)", "graph", "", "the loaded plugins registered no pass");
}
