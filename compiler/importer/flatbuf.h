/* A bounds-checked reader of FlatBuffers binaries, the wire format of .tflite
 * files. No C FlatBuffers library is packaged for Debian (flatcc is not, and
 * flatc generates C++ only), so this reader is glowc's own. Every offset and
 * length is checked against the buffer before it is followed: a vtable, a
 * field inside its table, a sub-table, a vector's count times its element
 * size, a string's terminating NUL. The first failed check is kept (sticky)
 * in fb->err with what was being read and where; reads after it return their
 * defaults, so a caller checks glow_fb_failed() once per object it reads.
 *
 * Offsets only point forward from a table to what it holds, so nothing can
 * loop; vtables may be shared, as the format allows. Values are little-endian
 * on the wire and assembled byte by byte (no alignment is assumed). */
#ifndef GLOW_FLATBUF_H
#define GLOW_FLATBUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct glow_fb {
  const uint8_t *buf;
  size_t size;
  char err[256]; /* "" until a check fails */
} glow_fb;

typedef struct glow_fb_table {
  glow_fb *fb;
  uint32_t pos;    /* 0: absent (no table starts at byte 0, which holds the root offset) */
  uint32_t vt;     /* its vtable */
  uint16_t vtlen;  /* bytes of vtable */
  uint16_t tablen; /* bytes of table the vtable declares */
} glow_fb_table;

typedef struct glow_fb_vec {
  glow_fb *fb;
  uint32_t pos; /* first element */
  uint32_t n;   /* element count (0 when absent) */
  int elem;     /* element size in bytes */
} glow_fb_vec;

/* The root table of a buffer with file identifier `ident` (4 characters, or NULL to
 * accept any). @return 0, or -1 with fb->err set. */
int glow_fb_root(glow_fb *fb, const char *ident, glow_fb_table *root);
int glow_fb_failed(const glow_fb *fb);

/* Whether field `id` (its index in the schema) is present. */
int glow_fb_has(const glow_fb_table *t, int id);
/* A scalar field of `bytes` (1, 2, 4 or 8) bytes, sign-extended; dflt when absent. */
int64_t glow_fb_int(const glow_fb_table *t, int id, int bytes, int64_t dflt);
uint64_t glow_fb_uint(const glow_fb_table *t, int id, int bytes, uint64_t dflt);
float glow_fb_float(const glow_fb_table *t, int id, float dflt);
/* A sub-table field: 1 when present, 0 when absent (sub->pos 0), -1 after a failed check. */
int glow_fb_table_field(const glow_fb_table *t, int id, glow_fb_table *sub);
/* A vector field of `elem`-byte scalars, offsets (4) or tables (4): 1, 0 (empty), -1. */
int glow_fb_vec_field(const glow_fb_table *t, int id, int elem, glow_fb_vec *v);
/* A string field: its NUL-terminated bytes in the buffer, or dflt when absent. */
const char *glow_fb_string(const glow_fb_table *t, int id, const char *dflt);

/* Element i of a vector (i < v->n is the caller's to check). */
int64_t glow_fb_vec_int(const glow_fb_vec *v, uint32_t i);
uint64_t glow_fb_vec_uint(const glow_fb_vec *v, uint32_t i);
float glow_fb_vec_float(const glow_fb_vec *v, uint32_t i);
int glow_fb_vec_table(const glow_fb_vec *v, uint32_t i, glow_fb_table *t); /* 0, or -1 */
const char *glow_fb_vec_string(const glow_fb_vec *v, uint32_t i);        /* NULL after a failed check */
/* The bytes of a vector of bytes (v->n of them). */
const uint8_t *glow_fb_vec_bytes(const glow_fb_vec *v);

#endif
