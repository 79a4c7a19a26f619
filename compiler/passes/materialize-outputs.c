/* require shapes; maintains order. Every graph output gets its own buffer in
 * the mutable area: an output that is a constant, a graph input or another
 * output is copied into a fresh value that takes over the output's name. */
#include <stdio.h>
#include <stdlib.h>

#include "glowc.h"

int glow_pass_materialize_outputs(glow_graph *g, const glow_pass_options *o) {
  (void)o;
  for (int i = 0; i < g->noutputs; i++) {
    int id = g->outputs[i], dup = 0;
    for (int k = 0; k < i; k++)
      dup |= g->outputs[k] == id;
    glow_value *v = &g->vals[id];
    if (v->kind == GLOW_VAL_ACT && !dup)
      continue;
    int copy = glow_value_add(g, NULL);
    v = &g->vals[id]; /* the array may have moved */
    glow_value *c = &g->vals[copy];
    glow_value_set_shape(c, v->dt, v->rank, v->dims);
    c->is_output = 1;
    free(c->name);
    if (dup || v->kind == GLOW_VAL_INPUT) { /* listed twice, or an input too: both keep the name */
      c->name = glow_xstrdup(v->name);
    } else { /* the copy takes the output's name; the source gets a derived one */
      c->name = v->name;
      size_t len = (size_t)snprintf(NULL, 0, "%s.src", c->name) + 1;
      v->name = glow_xmalloc(len);
      snprintf(v->name, len, "%s.src", c->name);
      v->is_output = 0;
    }
    int in[1] = {id}, out[1] = {copy};
    glow_node_add(g, GLOW_OP_IDENTITY, "glowc.output_copy", 1, in, 1, out);
    g->outputs[i] = copy;
  }
  return 0;
}
