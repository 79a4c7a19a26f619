/* What both importers make of -model-input's forms: a bare name takes the model's
 * type and shape; a quantized form (int8q, int16q, int32q) keeps the placeholder
 * quantized and gives the float graph its value through a DequantizeLinear. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

int glow_model_input_find(const glow_import_options *o, const char *name) {
  for (int k = 0; k < o->ninputs; k++)
    if (!strcmp(o->input_names[k], name))
      return k;
  return -1;
}

int glow_model_input_bare(const glow_import_options *o, int k) {
  return o->input_types[k] == GLOW_DT_UNDEF && o->input_ranks[k] < 0;
}

int glow_model_input_quantized(const glow_import_options *o, int k) {
  return o->input_scales && o->input_scales[k] != 0.0f;
}

/* The range of a quantized placeholder type; 0 if dt is not one. */
static int qrange(glow_dtype dt, int64_t *lo, int64_t *hi) {
  int bits = dt == GLOW_DT_I8 ? 8 : dt == GLOW_DT_I16 ? 16 : dt == GLOW_DT_I32 ? 32 : 0;
  *lo = bits ? -((int64_t)1 << (bits - 1)) : 0;
  *hi = bits ? ((int64_t)1 << (bits - 1)) - 1 : 0;
  return bits;
}

static int scalar(glow_graph *g, const char *base, const char *suffix, glow_dtype dt, const void *data) {
  glow_strbuf name = {0};
  glow_sb_printf(&name, "%s%s", base, suffix);
  int id = glow_value_add(g, name.s);
  glow_sb_free(&name);
  glow_value_make_const(g, id, dt, 0, NULL, data);
  return id;
}

int glow_model_input_dequantize(glow_graph *g, int id, const glow_import_options *o, int k, const char *where) {
  float scale = o->input_scales[k];
  int32_t offset = o->input_offsets ? o->input_offsets[k] : 0;
  glow_dtype dt = g->vals[id].dt;
  int64_t lo, hi;
  int bits = qrange(dt, &lo, &hi);
  const char *form = dt == GLOW_DT_I8 ? "int8q" : dt == GLOW_DT_I16 ? "int16q" : "int32q";
  if (!bits) {
    glow_error(where, "-model-input for '%s': a scale and an offset go with int8q, int16q or int32q, not %s",
               g->vals[id].name, glow_dtype_name(dt));
    return -1;
  }
  if (!(scale > 0.0f) || !isfinite(scale)) {
    glow_error(where, "-model-input for '%s': the %s scale is %g; it must be a positive number", g->vals[id].name,
               form, (double)scale);
    return -1;
  }
  if (offset < lo || offset > hi) {
    glow_error(where, "-model-input for '%s': the %s offset %d is outside %s's range [%lld, %lld]", g->vals[id].name,
               form, (int)offset, glow_dtype_name(dt), (long long)lo, (long long)hi);
    return -1;
  }
  g->vals[id].qscale = scale;
  g->vals[id].qoffset = offset;
  /* The zero point has the input's type, as DequantizeLinear wants it. */
  int8_t z8 = (int8_t)offset;
  int16_t z16 = (int16_t)offset;
  const void *z = dt == GLOW_DT_I8 ? (const void *)&z8 : dt == GLOW_DT_I16 ? (const void *)&z16 : (const void *)&offset;
  char *name = glow_xstrdup(g->vals[id].name); /* g->vals moves as values are added */
  int in[3] = {id, scalar(g, name, ".scale", GLOW_DT_F32, &scale), scalar(g, name, ".zero_point", dt, z)};
  glow_strbuf vname = {0}, nname = {0};
  glow_sb_printf(&vname, "%s.dequantized", name);
  glow_sb_printf(&nname, "%s.dequantize", name);
  int f = glow_value_add(g, vname.s), nodes = g->nnodes;
  int n = glow_node_add(g, GLOW_OP_DEQUANTIZE_LINEAR, nname.s, 3, in, 1, &f);
  glow_sb_free(&vname);
  glow_sb_free(&nname);
  free(name);
  for (int i = 0; i < nodes; i++)
    for (int j = 0; j < g->nodes[i].nin; j++)
      if (g->nodes[i].in[j] == id)
        g->nodes[i].in[j] = f;
  return glow_op_get(GLOW_OP_DEQUANTIZE_LINEAR)->infer(g, &g->nodes[n]) ? -1 : f;
}
