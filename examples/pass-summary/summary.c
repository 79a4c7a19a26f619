/* A graph-pass plugin that changes nothing and prints a summary of the graph it
 * sees: node count by op (most frequent first), the constants' bytes and the
 * graph's inputs and outputs with their shapes.
 *
 *   model-compiler -model=resnet18.onnx -emit-bundle=out \
 *       -load-pass=libglowc-pass-summary.so -pass=summary
 *
 * Loaded after another plugin (-pass=fuse-layernorm,summary) it shows what that one
 * did. It includes only glowc-pass.h and links nothing of glowc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glowc-pass.h>

typedef struct {
  const char *op;
  int count;
} op_count;

static int by_count(const void *a, const void *b) {
  const op_count *x = a, *y = b;
  return x->count != y->count ? y->count - x->count : strcmp(x->op, y->op);
}

static void shape(const glowc_pass_api *api, glowc_graph *g, int v, char *buf, size_t cap) {
  int64_t dims[16];
  int rank = api->value_dims(g, v, dims, 16);
  size_t k = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < rank && i < 16 && k < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, "%s%lld", i ? "," : "", (long long)dims[i]);
  if (k < cap)
    snprintf(buf + k, cap - k, "]");
}

static int summary(const glowc_pass_api *api, glowc_graph *g, void *user) {
  (void)user;
  int nnodes = api->node_count(g), live = 0, nops = 0;
  op_count *ops = calloc((size_t)nnodes + 1, sizeof *ops);
  for (int n = 0; n < nnodes; n++) {
    if (api->node_erased(g, n))
      continue;
    live++;
    const char *op = api->node_op(g, n);
    int k = 0;
    while (k < nops && strcmp(ops[k].op, op))
      k++;
    if (k == nops)
      ops[nops++].op = op;
    ops[k].count++;
  }
  qsort(ops, (size_t)nops, sizeof *ops, by_count);
  api->note(g, "%d nodes, %d kinds of op", live, nops);
  for (int k = 0; k < nops; k++)
    api->note(g, "  %-24s %d", ops[k].op, ops[k].count);
  free(ops);

  size_t const_bytes = 0;
  int nconst = 0;
  char buf[256];
  for (int v = 0; v < api->value_count(g); v++) {
    size_t bytes = 0;
    if (api->value_kind(g, v) == GLOWC_VALUE_CONSTANT && api->value_num_uses(g, v) > 0 &&
        api->constant_data(g, v, &bytes)) {
      const_bytes += bytes;
      nconst++;
    }
    if (api->value_kind(g, v) == GLOWC_VALUE_INPUT || api->value_is_output(g, v)) {
      shape(api, g, v, buf, sizeof buf);
      api->note(g, "  %s %s dtype %d %s", api->value_is_output(g, v) ? "output" : "input ", api->value_name(g, v),
                api->value_dtype(g, v), buf);
    }
  }
  api->note(g, "%d constants in use, %zu bytes", nconst, const_bytes);
  return 0;
}

GLOWC_PASS_PLUGIN(api, registry) {
  return api->register_pass(registry, "summary", "prints the graph's ops, constants, inputs and outputs", summary,
                            NULL);
}
