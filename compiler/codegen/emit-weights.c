/* The constant area as bytes (.weights.bin) and as a C initializer list (.weights.txt). */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

int glow_emit_weights_bin(const glow_graph *g, const glow_plan *p, void **data, size_t *size) {
  *size = (size_t)p->const_size;
  *data = glow_xcalloc(1, *size); /* padding between tensors stays zero: deterministic */
  for (int i = 0; i < g->nvals; i++)
    if (p->area[i] == 1)
      memcpy((char *)*data + p->offset[i], g->vals[i].data, glow_value_bytes(&g->vals[i]));
  return 0;
}

int glow_emit_weights_txt(const glow_graph *g, const glow_plan *p, glow_strbuf *out) {
  void *data;
  size_t size;
  glow_emit_weights_bin(g, p, &data, &size);
  const unsigned char *d = data;
  for (size_t i = 0; i < size; i++)
    glow_sb_printf(out, "0x%02X,%s", d[i], i % 16 == 15 ? "\n" : "");
  if (size % 16)
    glow_sb_printf(out, "\n");
  free(data);
  return 0;
}
