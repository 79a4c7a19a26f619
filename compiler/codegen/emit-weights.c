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
  /* "0xAB," per byte, 16 to a line: written in place (printf per byte took 11 s of
   * resnet18's 15 s compile, its 380 MB of text). */
  static const char hex[] = "0123456789ABCDEF";
  const unsigned char *d = data;
  char *t = glow_sb_extend(out, size * 5 + (size + 15) / 16);
  for (size_t i = 0; i < size; i++) {
    t[0] = '0', t[1] = 'x', t[2] = hex[d[i] >> 4], t[3] = hex[d[i] & 15], t[4] = ',';
    t += 5;
    if (i % 16 == 15 || i + 1 == size)
      *t++ = '\n';
  }
  free(data);
  return 0;
}
