/* require shapes; maintains node order. Folds what follows a float32 Conv into
 * the conv's epilogue (targets/common/kernels/epilogue.h), so that the kernel
 * applies it to each output as it stores it instead of further passes over the
 * output in memory:
 *   Conv -> Add(conv, r)  : r becomes the conv's input 3 (the residual), when r
 *                           has the conv's shape and is ready before the conv;
 *   then -> Relu, Clip (constant bounds), Sigmoid, HardSwish, LeakyRelu,
 *           HardSigmoid, or x * Sigmoid(x) (swish): attributes glow.epi (kind,
 *           GLOW_EPI_*), glow.epi_a, glow.epi_b.
 * Only where the value in between has no other use and is no graph output; the
 * conv then writes the last fused node's output, and the fused nodes die.
 * Runs when compiling only (compile.c), after quantization: a profile names
 * the values of the unfused graph. */
#include <math.h>
#include <stdlib.h>

#include "glowc.h"

/* Per value: live uses, the first and the last user node. Fusing keeps them
 * true for every value a later fusion looks at (a fused conv's new output keeps
 * its users; the values in between die), so they are counted once. */
typedef struct {
  int *uses, *first, *user;
} use_map;

static void count_uses(const glow_graph *g, use_map *u) {
  for (int i = 0; i < g->nnodes; i++) {
    const glow_node *n = &g->nodes[i];
    for (int k = 0; !n->dead && k < n->nin; k++)
      if (n->in[k] >= 0) {
        if (!u->uses[n->in[k]]++)
          u->first[n->in[k]] = i;
        u->user[n->in[k]] = i;
      }
  }
}

/* The only live user of value v, or -1 (several users, a graph output, none). */
static int sole_user(const glow_graph *g, const use_map *u, int v) {
  return v >= 0 && !g->vals[v].is_output && u->uses[v] == 1 ? u->user[v] : -1;
}

/* Conv -> Add: the Add's other operand as the conv's residual input. */
static int fuse_residual(glow_graph *g, const use_map *u, int conv) {
  int x = g->nodes[conv].out[0], add = sole_user(g, u, x);
  if (add < 0 || g->nodes[add].op != GLOW_OP_ADD || g->nodes[add].nin != 2)
    return 0;
  const glow_node *a = &g->nodes[add];
  int r = a->in[0] == x ? a->in[1] : a->in[0];
  if (r == x || !glow_value_same_type(&g->vals[r], &g->vals[x]) || !glow_value_same_type(&g->vals[a->out[0]], &g->vals[x]))
    return 0;
  int prod = g->vals[r].producer; /* steps run in node order: r must exist when the conv runs */
  if (prod >= conv || (prod < 0 && g->vals[r].kind == GLOW_VAL_ACT))
    return 0;
  glow_node *c = &g->nodes[conv];
  c->in = glow_xrealloc(c->in, sizeof(int) * 4);
  for (int k = c->nin; k < 3; k++)
    c->in[k] = -1;
  c->in[3] = r;
  c->nin = 4;
  glow_attr_add_int(c, "glow.residual", 1);
  glow_node_take_output(g, conv, add);
  return 1;
}

/* A float scalar constant input of node n, or dflt when omitted; 0 if not constant. */
static int const_scalar(const glow_graph *g, const glow_node *n, int k, double dflt, double *v) {
  int id = k < n->nin ? n->in[k] : -1;
  if (id < 0) {
    *v = dflt;
    return 1;
  }
  const glow_value *c = &g->vals[id];
  if (c->kind != GLOW_VAL_CONST || c->dt != GLOW_DT_F32 || glow_value_numel(c) != 1)
    return 0;
  *v = *(const float *)c->data;
  return 1;
}

/* The epilogue kind for activation node `act` (GLOW_EPI_NONE: not one), its a and b. */
static int activation(const glow_graph *g, const glow_node *n, double *a, double *b) {
  *a = *b = 0.0;
  switch (n->op) {
  case GLOW_OP_RELU:
    return GLOW_EPI_RELU;
  case GLOW_OP_SIGMOID:
    return GLOW_EPI_SIGMOID;
  case GLOW_OP_HARDSWISH:
    return GLOW_EPI_HARDSWISH;
  case GLOW_OP_LEAKYRELU:
    *a = glow_attr_float(n, "alpha", 0.01);
    return GLOW_EPI_LEAKY_RELU;
  case GLOW_OP_HARDSIGMOID:
    *a = glow_attr_float(n, "alpha", 0.2);
    *b = glow_attr_float(n, "beta", 0.5);
    return GLOW_EPI_HARDSIGMOID;
  case GLOW_OP_CLIP:
    if (n->nin > 1 || g->opset >= 11)
      return const_scalar(g, n, 1, -INFINITY, a) && const_scalar(g, n, 2, INFINITY, b) ? GLOW_EPI_CLIP : 0;
    *a = glow_attr_float(n, "min", -INFINITY);
    *b = glow_attr_float(n, "max", INFINITY);
    return GLOW_EPI_CLIP;
  default:
    return GLOW_EPI_NONE;
  }
}

/* x = conv output used by Sigmoid(x) -> s and Mul(x, s) only: the Mul, or -1. */
static int swish_mul(const glow_graph *g, const use_map *u, int x, int *sig) {
  if (g->vals[x].is_output || u->uses[x] != 2)
    return -1;
  for (int k = 0; k < 2; k++) {
    int i = k ? u->user[x] : u->first[x];
    const glow_node *s = &g->nodes[i];
    if (s->op != GLOW_OP_SIGMOID || s->in[0] != x)
      continue;
    int m = sole_user(g, u, s->out[0]);
    if (m < 0 || g->nodes[m].op != GLOW_OP_MUL || g->nodes[m].nin != 2)
      return -1;
    const glow_node *mul = &g->nodes[m];
    if (!((mul->in[0] == x && mul->in[1] == s->out[0]) || (mul->in[1] == x && mul->in[0] == s->out[0])))
      return -1;
    *sig = i;
    return m;
  }
  return -1;
}

static int fuse_activation(glow_graph *g, const use_map *u, int conv) {
  int x = g->nodes[conv].out[0], act = sole_user(g, u, x), sig = -1, kind;
  double a, b;
  if (act >= 0) {
    kind = activation(g, &g->nodes[act], &a, &b);
    if (kind == GLOW_EPI_NONE || !glow_value_same_type(&g->vals[g->nodes[act].out[0]], &g->vals[x]))
      return 0;
  } else if ((act = swish_mul(g, u, x, &sig)) >= 0 && glow_value_same_type(&g->vals[g->nodes[act].out[0]], &g->vals[x])) {
    kind = GLOW_EPI_SWISH;
    a = b = 0.0;
    g->nodes[sig].dead = 1;
  } else {
    return 0;
  }
  glow_node *c = &g->nodes[conv];
  glow_attr_add_int(c, "glow.epi", kind);
  glow_attr_add_float(c, "glow.epi_a", a);
  glow_attr_add_float(c, "glow.epi_b", b);
  glow_node_take_output(g, conv, act);
  return 1;
}

int glow_pass_fuse_epilogue(glow_graph *g, const glow_pass_options *o) {
  use_map u = {glow_xcalloc((size_t)g->nvals, sizeof(int)), glow_xcalloc((size_t)g->nvals, sizeof(int)),
               glow_xcalloc((size_t)g->nvals, sizeof(int))};
  count_uses(g, &u);
  int fused = 0;
  for (int i = 0; i < g->nnodes; i++) {
    const glow_node *c = &g->nodes[i];
    if (c->dead || c->op != GLOW_OP_CONV || c->nin > 3 || g->vals[c->out[0]].dt != GLOW_DT_F32 ||
        glow_attr_find(c, "glow.epi"))
      continue;
    fused += fuse_residual(g, &u, i);
    fused += fuse_activation(g, &u, i);
  }
  free(u.uses);
  free(u.first);
  free(u.user);
  if (o->verbose && fused)
    glow_note("fuse-epilogue: %d activations and residual adds folded into convolutions\n", fused);
  return 0;
}
