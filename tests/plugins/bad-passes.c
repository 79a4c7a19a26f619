/* Passes that go wrong in each way glowc must catch, one per -pass name:
 *   crash    dereferences NULL
 *   fails    reports an error and returns 1
 *   silent   returns 1 without a message
 *   misuse   erases a node whose output is still read (the API refuses), then returns 0
 *   cycle    makes the first node read the last node's output
 *   reshape  replaces the graph output by a value of another shape */
#include <stddef.h>
#include <stdint.h>

#include <glowc-pass.h>

static int crash(const glowc_pass_api *api, glowc_graph *g, void *user) {
  (void)api;
  (void)g;
  volatile int *p = (volatile int *)user;
  return *p;
}

static int fails(const glowc_pass_api *api, glowc_graph *g, void *user) {
  (void)user;
  api->error(g, "this model has %d nodes, which this pass does not like", api->node_count(g));
  return 1;
}

static int silent(const glowc_pass_api *api, glowc_graph *g, void *user) {
  (void)api;
  (void)g;
  (void)user;
  return 7;
}

static int misuse(const glowc_pass_api *api, glowc_graph *g, void *user) {
  (void)user;
  api->node_erase(g, 0); /* the first node's output is read by the second */
  return 0;
}

static int cycle(const glowc_pass_api *api, glowc_graph *g, void *user) {
  (void)user;
  int last = api->node_count(g) - 1;
  return api->node_set_input(g, 0, 0, api->node_output(g, last, 0)) != 0;
}

static int reshape(const glowc_pass_api *api, glowc_graph *g, void *user) {
  (void)user;
  int out = -1;
  for (int v = 0; v < api->value_count(g) && out < 0; v++)
    if (api->value_is_output(g, v))
      out = v;
  int64_t shape[2] = {1, -1};
  int c = api->constant_add(g, NULL, GLOWC_DTYPE_INT64, 1, (const int64_t[]){2}, shape), r;
  int in[2] = {out, c};
  int n = api->node_add(g, "Reshape", "flatten-output", 2, in, 1, NULL, &r);
  if (n < 0 || api->node_infer(g, n))
    return 1;
  return api->value_replace_uses(g, out, r) != 0; /* the API refuses: another shape */
}

GLOWC_PASS_PLUGIN(api, r) {
  return api->register_pass(r, "crash", "dereferences NULL", crash, NULL) ||
         api->register_pass(r, "fails", "reports an error", fails, NULL) ||
         api->register_pass(r, "silent", "fails without a message", silent, NULL) ||
         api->register_pass(r, "misuse", "erases a node still read", misuse, NULL) ||
         api->register_pass(r, "cycle", "makes a cycle", cycle, NULL) ||
         api->register_pass(r, "reshape", "changes the output's shape", reshape, NULL);
}
