/* A graph-pass plugin that fuses a pattern: the layer normalization that
 * PyTorch exports before ONNX opset 17 as nine nodes,
 *
 *   m = ReduceMean(x, axes=[-1])   d = Sub(x, m)          v = ReduceMean(Pow(d, 2), axes=[-1])
 *   s = Sqrt(Add(v, eps))          y = Add(Mul(Div(d, s), gamma), beta)
 *
 * becomes one LayerNormalization(x, gamma, beta, axis=-1, epsilon=eps), which glowc
 * runs as one kernel. The Mul and Add are optional (scale 1, no bias).
 *
 *   model-compiler -model=transformer.onnx -emit-bundle=out \
 *       -load-pass=libglowc-pass-fuse-layernorm.so -pass=fuse-layernorm
 *
 * It includes only glowc-pass.h and links nothing of glowc. */
#include <stdlib.h>
#include <string.h>

#include <glowc-pass.h>

typedef const glowc_pass_api api_t;

/* The node that is the only reader of value v, if it is an `op`; else -1. v must not
 * be a graph output (the fused node would lose it). */
static int only_user(api_t *api, glowc_graph *g, int v, const char *op) {
  if (v < 0 || api->value_is_output(g, v) || api->value_num_uses(g, v) != 1)
    return -1;
  int n = api->value_use(g, v, 0, NULL);
  return strcmp(api->node_op(g, n), op) ? -1 : n;
}

/* The other input of a two-input node, given one of them; -1 if `v` is not one. */
static int other_input(api_t *api, glowc_graph *g, int n, int v) {
  if (api->node_num_inputs(g, n) != 2)
    return -1;
  int a = api->node_input(g, n, 0), b = api->node_input(g, n, 1);
  return a == v ? b : b == v ? a : -1;
}

/* A float32 constant with one element: its value in *x. */
static int scalar(api_t *api, glowc_graph *g, int v, float *x) {
  size_t bytes = 0;
  const void *p = v >= 0 ? api->constant_data(g, v, &bytes) : NULL;
  if (!p || bytes != sizeof(float) || api->value_dtype(g, v) != GLOWC_DTYPE_FLOAT)
    return 0;
  memcpy(x, p, sizeof *x);
  return 1;
}

/* A float32 constant of shape [c] (c: x's last dimension). */
static int channel_vector(api_t *api, glowc_graph *g, int v, int64_t c) {
  int64_t dims[8];
  return v >= 0 && api->value_kind(g, v) == GLOWC_VALUE_CONSTANT && api->value_dtype(g, v) == GLOWC_DTYPE_FLOAT &&
         api->value_dims(g, v, dims, 8) == 1 && dims[0] == c;
}

/* A ReduceMean over the last axis only, keeping it (axes as an attribute, or as a
 * constant input from opset 18). */
static int mean_of_last_axis(api_t *api, glowc_graph *g, int n, int rank) {
  if (strcmp(api->node_op(g, n), "ReduceMean"))
    return 0;
  int64_t keep = 1;
  if (api->attr_type(g, n, "keepdims") == GLOWC_ATTR_INT)
    api->attr_int(g, n, "keepdims", &keep);
  if (!keep)
    return 0;
  const int64_t *axes = NULL;
  int64_t axis;
  if (api->attr_ints(g, n, "axes", &axes) == 1)
    axis = axes[0];
  else if (api->node_num_inputs(g, n) == 2) {
    size_t bytes;
    const void *p = api->constant_data(g, api->node_input(g, n, 1), &bytes);
    if (!p || bytes != sizeof axis || api->value_dtype(g, api->node_input(g, n, 1)) != GLOWC_DTYPE_INT64)
      return 0;
    memcpy(&axis, p, sizeof axis);
  } else
    return 0;
  return axis == -1 || axis == rank - 1;
}

/* Fuses the pattern that starts at node `mean` (the first ReduceMean); 1 if it did. */
static int fuse_at(api_t *api, glowc_graph *g, int mean) {
  int x = api->node_input(g, mean, 0);
  int64_t dims[8];
  int rank = api->value_dims(g, x, dims, 8);
  if (rank < 1 || rank > 8 || api->value_dtype(g, x) != GLOWC_DTYPE_FLOAT || !mean_of_last_axis(api, g, mean, rank))
    return 0;
  int m = api->node_output(g, mean, 0);
  int n_sub = only_user(api, g, m, "Sub");
  if (n_sub < 0 || api->node_input(g, n_sub, 0) != x || api->node_input(g, n_sub, 1) != m)
    return 0;
  int d = api->node_output(g, n_sub, 0);
  if (api->value_is_output(g, d) || api->value_num_uses(g, d) != 2)
    return 0;
  int n_pow = -1, n_div = -1;
  for (int k = 0; k < 2; k++) {
    int u = api->value_use(g, d, k, NULL);
    if (!strcmp(api->node_op(g, u), "Pow") && api->node_input(g, u, 0) == d)
      n_pow = u;
    else if (!strcmp(api->node_op(g, u), "Div") && api->node_input(g, u, 0) == d)
      n_div = u;
  }
  float two, eps;
  if (n_pow < 0 || n_div < 0 || !scalar(api, g, api->node_input(g, n_pow, 1), &two) || two != 2.0f)
    return 0;
  int n_var = only_user(api, g, api->node_output(g, n_pow, 0), "ReduceMean");
  if (n_var < 0 || !mean_of_last_axis(api, g, n_var, rank))
    return 0;
  int n_add = only_user(api, g, api->node_output(g, n_var, 0), "Add");
  if (n_add < 0 || !scalar(api, g, other_input(api, g, n_add, api->node_output(g, n_var, 0)), &eps))
    return 0;
  int n_sqrt = only_user(api, g, api->node_output(g, n_add, 0), "Sqrt");
  if (n_sqrt < 0 || api->node_input(g, n_div, 1) != api->node_output(g, n_sqrt, 0) ||
      api->value_num_uses(g, api->node_output(g, n_sqrt, 0)) != 1 || api->value_is_output(g, api->node_output(g, n_sqrt, 0)))
    return 0;
  /* Optional scale and bias, each a [C] constant. */
  int last = n_div, gamma = -1, beta = -1;
  int n_mul = only_user(api, g, api->node_output(g, n_div, 0), "Mul");
  if (n_mul >= 0 && channel_vector(api, g, other_input(api, g, n_mul, api->node_output(g, n_div, 0)), dims[rank - 1])) {
    gamma = other_input(api, g, n_mul, api->node_output(g, n_div, 0));
    last = n_mul;
    int n_bias = only_user(api, g, api->node_output(g, n_mul, 0), "Add");
    if (n_bias >= 0 && channel_vector(api, g, other_input(api, g, n_bias, api->node_output(g, n_mul, 0)), dims[rank - 1])) {
      beta = other_input(api, g, n_bias, api->node_output(g, n_mul, 0));
      last = n_bias;
    }
  }
  if (gamma < 0) { /* LayerNormalization needs a scale: ones */
    float *ones = malloc(sizeof *ones * (size_t)dims[rank - 1]);
    for (int64_t i = 0; i < dims[rank - 1]; i++)
      ones[i] = 1.0f;
    gamma = api->constant_add(g, NULL, GLOWC_DTYPE_FLOAT, 1, &dims[rank - 1], ones);
    free(ones);
  }
  int in[3] = {x, gamma, beta}, out;
  int ln = api->node_add(g, "LayerNormalization", api->node_name(g, mean), beta >= 0 ? 3 : 2, in, 1, NULL, &out);
  if (ln < 0 || api->set_attr_int(g, ln, "axis", -1) || api->set_attr_float(g, ln, "epsilon", eps) ||
      api->node_infer(g, ln) || api->value_replace_uses(g, api->node_output(g, last, 0), out))
    return -1;
  /* The old nodes, readers first: each is unused once the one before it is gone. */
  int chain[] = {beta >= 0 ? last : -1, last != n_div ? n_mul : -1, n_div, n_sqrt, n_add, n_var, n_pow, n_sub, mean};
  for (int i = 0; i < (int)(sizeof chain / sizeof chain[0]); i++)
    if (chain[i] >= 0 && api->node_erase(g, chain[i]))
      return -1;
  return 1;
}

static int fuse_layernorm(api_t *api, glowc_graph *g, void *user) {
  (void)user;
  int fused = 0, count = api->node_count(g); /* the nodes it adds are not candidates */
  for (int n = 0; n < count; n++) {
    if (api->node_erased(g, n) || strcmp(api->node_op(g, n), "ReduceMean"))
      continue;
    int rc = fuse_at(api, g, n);
    if (rc < 0)
      return 1; /* glowc printed why */
    fused += rc;
  }
  api->note(g, "fused %d layer normalizations into LayerNormalization", fused);
  return 0;
}

GLOWC_PASS_PLUGIN(api, registry) {
  return api->register_pass(registry, "fuse-layernorm",
                            "decomposed layer normalizations (ReduceMean .. Sqrt .. Div) become LayerNormalization",
                            fuse_layernorm, NULL);
}
