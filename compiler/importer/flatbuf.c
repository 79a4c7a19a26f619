/* The FlatBuffers reader of flatbuf.h: every position is computed in 64 bits
 * and checked against the buffer's size before a byte of it is read. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "importer/flatbuf.h"

static void fail(glow_fb *fb, const char *fmt, ...) {
  if (fb->err[0])
    return; /* the first failure is the one worth reading */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(fb->err, sizeof fb->err, fmt, ap);
  va_end(ap);
  if (!fb->err[0])
    snprintf(fb->err, sizeof fb->err, "corrupt");
}

int glow_fb_failed(const glow_fb *fb) { return fb->err[0] != 0; }

static uint64_t rd(const glow_fb *fb, uint64_t pos, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; i--)
    v = v << 8 | fb->buf[pos + (uint64_t)i];
  return v;
}

static int64_t sext(uint64_t v, int bytes) {
  if (bytes == 8)
    return (int64_t)v;
  uint64_t sign = 1ull << (8 * bytes - 1);
  return (int64_t)((v ^ sign) - sign);
}

/* [pos, pos + len) lies inside the buffer. */
static int inside(glow_fb *fb, uint64_t pos, uint64_t len, const char *what) {
  if (pos <= fb->size && len <= fb->size - pos)
    return 1;
  fail(fb, "%s at byte %llu (%llu bytes) lies outside the file (%zu bytes)", what, (unsigned long long)pos,
       (unsigned long long)len, fb->size);
  return 0;
}

static int table_at(glow_fb *fb, uint64_t pos, glow_fb_table *t) {
  memset(t, 0, sizeof *t);
  t->fb = fb;
  if (!pos) {
    fail(fb, "a table offset of 0");
    return -1;
  }
  if (!inside(fb, pos, 4, "a table"))
    return -1;
  int64_t vt = (int64_t)pos - sext(rd(fb, pos, 4), 4);
  if (vt < 0) {
    fail(fb, "the vtable of the table at byte %llu would be at byte %lld, before the file", (unsigned long long)pos,
         (long long)vt);
    return -1;
  }
  if (!inside(fb, (uint64_t)vt, 4, "the vtable of the table"))
    return -1;
  uint16_t vtlen = (uint16_t)rd(fb, (uint64_t)vt, 2), tablen = (uint16_t)rd(fb, (uint64_t)vt + 2, 2);
  if (vtlen < 4 || vtlen % 2 || tablen < 4) {
    fail(fb, "the vtable at byte %lld of the table at byte %llu declares %u and %u bytes", (long long)vt,
         (unsigned long long)pos, vtlen, tablen);
    return -1;
  }
  if (!inside(fb, (uint64_t)vt, vtlen, "a vtable") || !inside(fb, pos, tablen, "a table"))
    return -1;
  t->pos = (uint32_t)pos;
  t->vt = (uint32_t)vt;
  t->vtlen = vtlen;
  t->tablen = tablen;
  return 0;
}

int glow_fb_root(glow_fb *fb, const char *ident, glow_fb_table *root) {
  memset(root, 0, sizeof *root);
  root->fb = fb;
  if (fb->size < 8 || fb->size >= UINT32_MAX) {
    fail(fb, fb->size < 8 ? "the file is %zu bytes, too short for a FlatBuffer" : "the file is %zu bytes, over the "
         "4 GiB a FlatBuffer can address", fb->size);
    return -1;
  }
  if (ident && memcmp(fb->buf + 4, ident, 4)) {
    char got[5];
    for (int i = 0; i < 4; i++)
      got[i] = fb->buf[4 + i] >= 32 && fb->buf[4 + i] < 127 ? (char)fb->buf[4 + i] : '?';
    got[4] = 0;
    fail(fb, "the file identifier is '%s', not '%s'", got, ident);
    return -1;
  }
  return table_at(fb, rd(fb, 0, 4), root);
}

/* Where field id's bytes begin (0 if absent), checked to lie inside the table. */
static uint64_t field(const glow_fb_table *t, int id, int bytes) {
  if (!t->pos || t->fb->err[0] || 4 + 2 * (uint64_t)id + 2 > t->vtlen)
    return 0;
  uint16_t off = (uint16_t)rd(t->fb, t->vt + 4 + 2 * (uint64_t)id, 2);
  if (!off)
    return 0;
  if ((uint64_t)off + (uint64_t)bytes > t->tablen) {
    fail(t->fb, "field %d of the table at byte %u lies outside the table's %u bytes", id, t->pos, t->tablen);
    return 0;
  }
  return (uint64_t)t->pos + off;
}

int glow_fb_has(const glow_fb_table *t, int id) { return field(t, id, 1) != 0; }

int64_t glow_fb_int(const glow_fb_table *t, int id, int bytes, int64_t dflt) {
  uint64_t p = field(t, id, bytes);
  return p ? sext(rd(t->fb, p, bytes), bytes) : dflt;
}

uint64_t glow_fb_uint(const glow_fb_table *t, int id, int bytes, uint64_t dflt) {
  uint64_t p = field(t, id, bytes);
  return p ? rd(t->fb, p, bytes) : dflt;
}

static float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

float glow_fb_float(const glow_fb_table *t, int id, float dflt) {
  uint64_t p = field(t, id, 4);
  return p ? bits_float((uint32_t)rd(t->fb, p, 4)) : dflt;
}

/* The target of the offset stored at p (a uoffset_t, relative to p). */
static uint64_t follow(glow_fb *fb, uint64_t p) { return p + rd(fb, p, 4); }

int glow_fb_table_field(const glow_fb_table *t, int id, glow_fb_table *sub) {
  memset(sub, 0, sizeof *sub);
  sub->fb = t->fb;
  uint64_t p = field(t, id, 4);
  if (!p)
    return t->fb->err[0] ? -1 : 0;
  return table_at(t->fb, follow(t->fb, p), sub) ? -1 : 1;
}

static int vec_at(glow_fb *fb, uint64_t pos, int elem, glow_fb_vec *v) {
  if (!inside(fb, pos, 4, "a vector's length"))
    return -1;
  uint64_t n = rd(fb, pos, 4);
  if (!inside(fb, pos + 4, n * (uint64_t)elem, "a vector"))
    return -1;
  v->pos = (uint32_t)(pos + 4);
  v->n = (uint32_t)n;
  return 1;
}

int glow_fb_vec_field(const glow_fb_table *t, int id, int elem, glow_fb_vec *v) {
  memset(v, 0, sizeof *v);
  v->fb = t->fb;
  v->elem = elem;
  uint64_t p = field(t, id, 4);
  if (!p)
    return t->fb->err[0] ? -1 : 0;
  return vec_at(t->fb, follow(t->fb, p), elem, v);
}

static const char *string_at(glow_fb *fb, uint64_t pos) {
  glow_fb_vec v = {.fb = fb, .elem = 1};
  if (vec_at(fb, pos, 1, &v) < 0 || !inside(fb, (uint64_t)v.pos + v.n, 1, "a string's terminating NUL"))
    return NULL;
  const char *s = (const char *)fb->buf + v.pos;
  if (s[v.n] || memchr(s, 0, v.n)) {
    fail(fb, "the string at byte %u is not %u bytes ended by a NUL", v.pos, v.n);
    return NULL;
  }
  return s;
}

const char *glow_fb_string(const glow_fb_table *t, int id, const char *dflt) {
  uint64_t p = field(t, id, 4);
  if (!p)
    return dflt;
  const char *s = string_at(t->fb, follow(t->fb, p));
  return s ? s : dflt;
}

int64_t glow_fb_vec_int(const glow_fb_vec *v, uint32_t i) {
  return sext(rd(v->fb, v->pos + (uint64_t)i * (uint64_t)v->elem, v->elem), v->elem);
}

uint64_t glow_fb_vec_uint(const glow_fb_vec *v, uint32_t i) {
  return rd(v->fb, v->pos + (uint64_t)i * (uint64_t)v->elem, v->elem);
}

float glow_fb_vec_float(const glow_fb_vec *v, uint32_t i) { return bits_float((uint32_t)glow_fb_vec_uint(v, i)); }

int glow_fb_vec_table(const glow_fb_vec *v, uint32_t i, glow_fb_table *t) {
  uint64_t p = v->pos + 4 * (uint64_t)i;
  return table_at(v->fb, follow(v->fb, p), t);
}

const char *glow_fb_vec_string(const glow_fb_vec *v, uint32_t i) {
  uint64_t p = v->pos + 4 * (uint64_t)i;
  return string_at(v->fb, follow(v->fb, p));
}

const uint8_t *glow_fb_vec_bytes(const glow_fb_vec *v) { return v->fb->buf + v->pos; }
