/* -bind-input: a graph input becomes a constant holding the values of a
 * serialized TensorProto, for inputs that decide shapes, axes or sizes. */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

int glow_bind_input(glow_graph *g, const char *spec) {
  const char *comma = strchr(spec, ',');
  if (!comma) {
    glow_error("-bind-input", "'%s' is not <input name>,<tensor.pb>", spec);
    return -1;
  }
  int k = 0;
  while (k < g->ninputs && (strncmp(g->vals[g->inputs[k]].name, spec, (size_t)(comma - spec)) ||
                            g->vals[g->inputs[k]].name[comma - spec]))
    k++;
  if (k == g->ninputs) {
    glow_error("-bind-input", "the model has no input named '%.*s'", (int)(comma - spec), spec);
    return -1;
  }
  glow_tensor t;
  if (glow_tensor_pb_load(comma + 1, &t.dt, &t.rank, t.dims, &t.data, NULL))
    return -1;
  glow_value *v = &g->vals[g->inputs[k]];
  int64_t n = 1;
  for (int i = 0; i < t.rank; i++)
    n *= t.dims[i];
  int ok = t.dt == v->dt && n == glow_value_numel(v);
  char s[160];
  if (!ok)
    glow_error(comma + 1, "holds %lld %s values; input '%s' is %s", (long long)n, glow_dtype_name(t.dt), v->name,
               glow_shape_str(v, s, sizeof s));
  else
    glow_value_make_const(g, g->inputs[k], t.dt, v->rank, v->dims, t.data);
  free(t.data);
  if (!ok)
    return -1;
  memmove(g->inputs + k, g->inputs + k + 1, sizeof *g->inputs * (size_t)(g->ninputs - k - 1));
  g->ninputs--;
  return 0;
}
