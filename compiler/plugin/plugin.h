/* Graph-pass plugins inside glowc: the loaded libraries, their passes, and the
 * graph handle (glowc_graph) a running pass works on. */
#ifndef GLOW_PLUGIN_PLUGIN_H
#define GLOW_PLUGIN_PLUGIN_H

#include "glowc-pass.h"
#include "glowc.h"

typedef struct glow_plugin_pass {
  char *name, *what;
  const char *lib; /* the -load-pass path, for messages */
  glowc_pass_fn run;
  void *user;
} glow_plugin_pass;

struct glow_plugins {
  int nlibs;
  void **handles;
  const char **libs;
  int npasses; /* every pass the libraries registered, in load order */
  glow_plugin_pass *passes;
  int nrun;    /* the passes that run, in order: -pass's, or all of them */
  const glow_plugin_pass **run;
};

struct glowc_pass_registry {
  glow_plugins *p;
  const char *lib;
  int failed;
};

/* What a running pass sees: the graph, and who it is for messages. */
struct glowc_graph {
  glow_graph *g;
  const glow_plugin_pass *pass;
  int failed; /* api->error() was called, or an api function was misused */
};

/* plugin/plugin-load.c: api->register_pass. */
int glow_plugin_register(glowc_pass_registry *r, const char *name, const char *what, glowc_pass_fn run, void *user);

/* plugin/plugin-run.c: a plugin's init under the crash guard (a crash ends the process
 * with a message naming lib). */
int glow_plugin_guarded_init(const char *lib, int (*init)(const glowc_pass_api *, glowc_pass_registry *),
                             glowc_pass_registry *r);

/* plugin/plugin-api.c: the function table handed to plugins. */
extern const glowc_pass_api glow_plugin_api;
/* "lib (pass name)": where messages about a plugin pass come from. */
void glow_plugin_where(const glow_plugin_pass *p, char *buf, size_t cap);

#endif
