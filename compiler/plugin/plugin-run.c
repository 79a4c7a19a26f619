/* Plugin passes run in the order -pass gave (or load order), each under a crash
 * guard; after each, the graph it left is put back in topological order and
 * checked, so a plugin's mistake is an error naming it, not a bad bundle. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* sigaltstack, SA_ONSTACK (XSI) */
#endif
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin/plugin.h"

/* ---- crash guard: a signal in plugin code ends the process with a message naming
 * the plugin. Nothing of the bundle is written before the passes have run. ---- */

static const int guarded[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define NGUARDED ((int)(sizeof guarded / sizeof guarded[0]))
static struct sigaction saved[NGUARDED];
static char crash_msg[768];
static size_t crash_len;
static char alt_stack[1 << 16]; /* a stack overflow in the plugin still reaches the handler */

static void put(const char *s) {
  ssize_t rc = write(2, s, strlen(s));
  (void)rc;
}

static void on_crash(int sig) {
  static const char *const names[] = {"SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT"};
  const char *name = "a signal";
  for (int i = 0; i < NGUARDED; i++)
    if (guarded[i] == sig)
      name = names[i];
  ssize_t rc = write(2, crash_msg, crash_len);
  (void)rc;
  put(name);
  put("); nothing was written\n");
  _exit(1);
}

static void guard_begin(const char *where, const char *what) {
  int n = snprintf(crash_msg, sizeof crash_msg, "%s: error: %s crashed (", where, what);
  crash_len = n < 0 ? 0 : (size_t)n < sizeof crash_msg ? (size_t)n : sizeof crash_msg - 1;
  stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack, .ss_flags = 0};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_crash;
  sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < NGUARDED; i++)
    sigaction(guarded[i], &sa, &saved[i]);
}

static void guard_end(void) {
  for (int i = 0; i < NGUARDED; i++)
    sigaction(guarded[i], &saved[i], NULL);
}

int glow_plugin_guarded_init(const char *lib, int (*init)(const glowc_pass_api *, glowc_pass_registry *),
                             glowc_pass_registry *r) {
  guard_begin(lib, "its glowc_pass_plugin_init");
  int rc = init(&glow_plugin_api, r);
  guard_end();
  return rc;
}

/* ---- the graph after a pass ---- */

/* Whether value v is available to a live node: an input, a constant, or a live node's output. */
static int computed(const glow_graph *g, int v) {
  const glow_value *x = &g->vals[v];
  if (x->kind != GLOW_VAL_ACT)
    return 1;
  if (x->producer < 0 || g->nodes[x->producer].dead)
    return 0;
  const glow_node *p = &g->nodes[x->producer];
  for (int k = 0; k < p->nout; k++)
    if (p->out[k] == v)
      return 1;
  return 0;
}

static int check_graph(glow_graph *g, const char *where, const glow_value *outs_before) {
  if (glow_graph_topo_order(g)) {
    glow_error(where, "the pass left nodes that read each other's outputs in a cycle; nothing was written");
    return -1;
  }
  for (int i = 0; i < g->nnodes; i++) {
    glow_node *n = &g->nodes[i];
    for (int k = 0; k < n->nin && !n->dead; k++)
      if (n->in[k] >= 0 && !computed(g, n->in[k])) {
        glow_error(where, "node '%s' (%s) reads '%s', which no node computes any more (was its producer erased?); "
                          "nothing was written",
                   n->name, glow_op_get(n->op)->onnx_name, g->vals[n->in[k]].name);
        return -1;
      }
  }
  for (int i = 0; i < g->nnodes; i++) { /* the new nodes' outputs: shapes the pass did not ask for */
    glow_node *n = &g->nodes[i];
    int missing = 0;
    for (int k = 0; k < n->nout && !n->dead; k++)
      missing |= n->out[k] >= 0 && g->vals[n->out[k]].rank < 0;
    if (missing && glow_op_get(n->op)->infer(g, n)) {
      glow_error(where, "node '%s' (%s) that the pass added is not valid (above); nothing was written", n->name,
                 glow_op_get(n->op)->onnx_name);
      return -1;
    }
  }
  for (int i = 0; i < g->noutputs; i++) {
    const glow_value *v = &g->vals[g->outputs[i]];
    char a[256], b[256];
    if (!glow_value_same_type(v, &outs_before[i])) {
      glow_error(where, "the pass changed graph output '%s' from %s to %s (the bundle's outputs must stay as the "
                        "model has them); nothing was written",
                 v->name, glow_shape_str(&outs_before[i], a, sizeof a), glow_shape_str(v, b, sizeof b));
      return -1;
    }
    if (v->kind == GLOW_VAL_ACT && !computed(g, g->outputs[i])) {
      glow_error(where, "graph output '%s' is computed by no node any more; nothing was written", v->name);
      return -1;
    }
  }
  return glow_graph_verify(g);
}

int glow_run_plugin_passes(glow_graph *g, const glow_pass_options *o) {
  const glow_plugins *p = o->plugins;
  for (int i = 0; p && i < p->nrun; i++) {
    const glow_plugin_pass *pp = p->run[i];
    char where[512];
    glow_plugin_where(pp, where, sizeof where);
    glow_value *outs = glow_xmalloc(sizeof *outs * (size_t)(g->noutputs + 1));
    for (int k = 0; k < g->noutputs; k++)
      outs[k] = g->vals[g->outputs[k]];
    glowc_graph h = {g, pp, 0};
    guard_begin(where, "the pass");
    int rc = pp->run(&glow_plugin_api, &h, pp->user);
    guard_end();
    if (rc || h.failed) {
      if (h.failed)
        glow_error(where, "the pass failed (errors above); nothing was written");
      else
        glow_error(where, "the pass failed (returned %d without a message); nothing was written", rc);
      free(outs);
      return -1;
    }
    rc = check_graph(g, where, outs);
    free(outs);
    if (rc)
      return -1;
    if (o->verbose) {
      int live = 0;
      for (int k = 0; k < g->nnodes; k++)
        live += !g->nodes[k].dead;
      glow_note("%s: ran; %d nodes\n", where, live);
    }
    if (o->dump_after && !strcmp(o->dump_after, pp->name)) {
      fprintf(stderr, "; IR after %s\n", pp->name);
      glow_graph_dump(g, stderr);
    }
  }
  return 0;
}
