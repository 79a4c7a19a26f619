/* Attribute and constant-input accessors for op definitions. */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

const glow_attr *glow_attr_find(const glow_node *n, const char *name) {
  for (int i = 0; i < n->nattr; i++)
    if (!strcmp(n->attrs[i].name, name))
      return &n->attrs[i];
  return NULL;
}

/* A new empty attribute appended to n; the node owns the copy of the name. */
static glow_attr *attr_append(glow_node *n, const char *name) {
  n->attrs = glow_xrealloc(n->attrs, sizeof *n->attrs * (size_t)(n->nattr + 1));
  glow_attr *a = &n->attrs[n->nattr++];
  memset(a, 0, sizeof *a);
  a->name = glow_xstrdup(name);
  return a;
}

void glow_attr_clear(glow_attr *a) {
  free(a->s);
  free(a->ints);
  free(a->floats);
  for (int k = 0; a->strings && k < a->n; k++)
    free(a->strings[k]);
  free(a->strings);
  char *name = a->name;
  memset(a, 0, sizeof *a);
  a->name = name;
}

glow_attr *glow_attr_slot(glow_node *n, const char *name) {
  glow_attr *a = (glow_attr *)glow_attr_find(n, name);
  if (!a)
    return attr_append(n, name);
  glow_attr_clear(a);
  return a;
}

/* Compiler-made attributes (glow.*): appended. */
static void attr_add(glow_node *n, const char *name, glow_attr_type type, int64_t i, double f) {
  glow_attr *a = attr_append(n, name);
  a->type = type;
  a->i = i;
  a->f = f;
}

void glow_attr_add_int(glow_node *n, const char *name, int64_t v) { attr_add(n, name, GLOW_ATTR_INT, v, 0.0); }

void glow_attr_add_float(glow_node *n, const char *name, double v) { attr_add(n, name, GLOW_ATTR_FLOAT, 0, v); }

void glow_attr_add_ints(glow_node *n, const char *name, int count, const int64_t *v) {
  glow_attr *a = glow_attr_slot(n, name);
  a->type = GLOW_ATTR_INTS;
  a->n = count;
  a->ints = glow_xmalloc((size_t)(count ? count : 1) * sizeof *a->ints);
  for (int i = 0; i < count; i++)
    a->ints[i] = v[i];
}

int64_t glow_attr_int(const glow_node *n, const char *name, int64_t dflt) {
  const glow_attr *a = glow_attr_find(n, name);
  return a && a->type == GLOW_ATTR_INT ? a->i : dflt;
}

double glow_attr_float(const glow_node *n, const char *name, double dflt) {
  const glow_attr *a = glow_attr_find(n, name);
  return a && a->type == GLOW_ATTR_FLOAT ? a->f : dflt;
}

const char *glow_attr_string(const glow_node *n, const char *name, const char *dflt) {
  const glow_attr *a = glow_attr_find(n, name);
  return a && a->type == GLOW_ATTR_STRING ? a->s : dflt;
}

int glow_attr_ints(const glow_node *n, const char *name, const int64_t **v) {
  const glow_attr *a = glow_attr_find(n, name);
  if (!a || a->type != GLOW_ATTR_INTS)
    return -1;
  *v = a->ints;
  return a->n;
}

int glow_const_ints(const glow_graph *g, int id, int64_t *v, int cap) {
  if (id < 0)
    return -1;
  const glow_value *c = &g->vals[id];
  if (c->kind != GLOW_VAL_CONST || !(glow_dtype_is_signed_int(c->dt) || glow_dtype_is_unsigned_int(c->dt)))
    return -1;
  int64_t n = glow_value_numel(c);
  if (n > cap)
    return -1;
  for (int64_t i = 0; i < n; i++)
    v[i] = glow_elem_geti(c->dt, c->data, i);
  return (int)n;
}
