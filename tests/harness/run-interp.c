/* Test driver for the reference interpreter: imports a model, runs the passes,
 * evaluates the graph with the interpreter on a test case's inputs and compares
 * with its outputs — the check that the oracle itself is right.
 *
 *   run-interp <model.onnx> <case_dir> [-bind-input=<name>,<file.pb>]... [-rtol R] [-atol A] [-max-rel E]
 *
 * Exit 0 if every output matches, 1 if not, 3 if the compiler refuses the
 * model (the message says why), 2 on a usage or IO error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "glowc.h"

int main(int argc, char **argv) {
  glow_tolerance tol = {1e-3, 1e-5, -1, 0};
  if (argc < 3) {
    fprintf(stderr, "usage: run-interp <model.onnx> <case_dir> [-bind-input=<name>,<file.pb>]... [-rtol R]...\n");
    return 2;
  }
  int first_tol = 3;
  while (first_tol < argc && !strncmp(argv[first_tol], "-bind-input=", 12))
    first_tol++;
  if (glow_test_tolerance(argc - first_tol, argv + first_tol, &tol))
    return 2;
  glow_import_options io;
  memset(&io, 0, sizeof io);
  glow_graph *g = glow_import_onnx(argv[1], &io);
  if (!g)
    return 3;
  for (int i = 3; i < first_tol; i++)
    if (glow_bind_input(g, argv[i] + 12))
      return 3;
  glow_pass_options po = {0};
  if (glow_run_passes(g, &po, GLOW_PASS_GRAPH))
    return 3;
  glow_tensor *ins = calloc((size_t)g->ninputs + 1, sizeof *ins), *outs = calloc((size_t)g->noutputs + 1, sizeof *outs);
  char path[4096];
  for (int i = 0;; i++) {
    snprintf(path, sizeof path, "%s/input_%d.pb", argv[2], i);
    FILE *f = fopen(path, "rb");
    if (!f)
      break;
    fclose(f);
    glow_tensor t;
    char *name = NULL;
    if (glow_tensor_pb_load(path, &t.dt, &t.rank, t.dims, &t.data, &name))
      return 2;
    int k = -1;
    for (int j = 0; j < g->ninputs && k < 0; j++)
      if (*name ? !strcmp(name, g->vals[g->inputs[j]].name) : j == i)
        k = j;
    free(name);
    if (k < 0) { /* bound at compile time */
      free(t.data);
      continue;
    }
    int64_t n = 1;
    for (int d = 0; d < t.rank; d++)
      n *= t.dims[d];
    if (!glow_test_dtype_ok(g->vals[g->inputs[k]].dt, t.dt) || n != glow_value_numel(&g->vals[g->inputs[k]])) {
      fprintf(stderr, "run-interp: %s does not match input '%s'\n", path, g->vals[g->inputs[k]].name);
      return 2;
    }
    t.dt = g->vals[g->inputs[k]].dt;
    ins[k] = t;
  }
  for (int k = 0; k < g->ninputs; k++)
    if (!ins[k].data && glow_value_bytes(&g->vals[g->inputs[k]])) {
      fprintf(stderr, "run-interp: no test data for input '%s'\n", g->vals[g->inputs[k]].name);
      return 2;
    }
  if (glow_interp_run(g, ins, outs))
    return 3;
  int bad = 0;
  for (int o = 0; o < g->noutputs; o++) {
    snprintf(path, sizeof path, "%s/output_%d.pb", argv[2], o);
    glow_tensor want;
    if (glow_tensor_pb_load(path, &want.dt, &want.rank, want.dims, &want.data, NULL))
      return 2;
    bad |= glow_test_compare(g->vals[g->outputs[o]].name, outs[o].dt, glow_value_numel(&g->vals[g->outputs[o]]),
                             outs[o].data, &want, &tol);
    free(want.data);
    free(outs[o].data);
  }
  for (int k = 0; k < g->ninputs; k++)
    free(ins[k].data);
  free(ins);
  free(outs);
  glow_graph_free(g);
  return bad;
}
