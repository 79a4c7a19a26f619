/* The FlatBuffers reader (importer/flatbuf.c) at the edges of its checks, on
 * buffers built byte by byte here: a vector whose elements end exactly at the
 * end of the file is read, one more element is refused; the same for a
 * string's NUL, a table's vtable and its fields, offsets and the root. Each
 * refusal leaves the reader's error set and reads after it return defaults. */
#include <stdio.h>
#include <string.h>

#include "importer/flatbuf.h"

static int failures;

#define CHECK(cond, ...)                                                                                              \
  do {                                                                                                                \
    if (!(cond)) {                                                                                                    \
      printf("FAIL line %d: ", __LINE__);                                                                             \
      printf(__VA_ARGS__);                                                                                            \
      printf("\n");                                                                                                   \
      failures++;                                                                                                     \
    }                                                                                                                 \
  } while (0)

static void put16(uint8_t *b, size_t at, uint16_t v) {
  b[at] = (uint8_t)v;
  b[at + 1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; i++)
    b[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

/* A file of `size` bytes: root offset 8 -> a table at 16 whose vtable (at 8) has one
 * field, at table offset 4: an offset to what starts at `target` (a vector or string). */
static size_t with_offset_field(uint8_t *b, uint32_t target) {
  memset(b, 0, 256);
  put32(b, 0, 16);
  memcpy(b + 4, "TEST", 4);
  put16(b, 8, 6);  /* vtable: 6 bytes */
  put16(b, 10, 8); /* table: 8 bytes */
  put16(b, 12, 4); /* field 0 at offset 4 */
  put32(b, 16, 16 - 8);
  put32(b, 20, target - 20);
  return 24;
}

static int open_root(glow_fb *fb, const uint8_t *b, size_t size, glow_fb_table *root) {
  memset(fb, 0, sizeof *fb);
  fb->buf = b;
  fb->size = size;
  return glow_fb_root(fb, "TEST", root);
}

/* A vector of n int32 at 24: accepted when it ends exactly at the end, refused one byte short. */
static void vector_edges(void) {
  uint8_t b[256];
  for (uint32_t n = 0; n < 4; n++) {
    size_t end = with_offset_field(b, 24) + 4 + 4 * n;
    put32(b, 24, n);
    for (uint32_t i = 0; i < n; i++)
      put32(b, 28 + 4 * i, 0x80000000u + i);
    glow_fb fb;
    glow_fb_table root;
    glow_fb_vec v;
    CHECK(!open_root(&fb, b, end, &root), "n=%u: root refused: %s", n, fb.err);
    CHECK(glow_fb_vec_field(&root, 0, 4, &v) == 1 && v.n == n, "n=%u: vector exactly to the end refused: %s", n,
          fb.err);
    for (uint32_t i = 0; i < v.n; i++)
      CHECK(glow_fb_vec_int(&v, i) == (int64_t)(int32_t)(0x80000000u + i), "n=%u: element %u", n, i);
    CHECK(!open_root(&fb, b, end - 1, &root), "n=%u: root refused: %s", n, fb.err);
    CHECK(glow_fb_vec_field(&root, 0, 4, &v) == -1 && v.n == 0, "n=%u: vector one byte past the end read", n);
    CHECK(strstr(fb.err, "a vector") && strstr(fb.err, "lies outside the file"), "n=%u: error '%s'", n, fb.err);
  }
  /* a count whose size in bytes overflows 32 bits */
  with_offset_field(b, 24);
  put32(b, 24, 0x40000001u);
  glow_fb fb;
  glow_fb_table root;
  glow_fb_vec v;
  open_root(&fb, b, 64, &root);
  CHECK(glow_fb_vec_field(&root, 0, 4, &v) == -1, "a count of 2^30 + 1 int32 read");
  /* the count itself past the end */
  with_offset_field(b, 24);
  open_root(&fb, b, 27, &root);
  CHECK(glow_fb_vec_field(&root, 0, 4, &v) == -1 && strstr(fb.err, "a vector's length"), "count past the end: '%s'",
        fb.err);
  /* an offset that wraps past 2^32 */
  with_offset_field(b, 24);
  put32(b, 20, 0xfffffff0u);
  open_root(&fb, b, 64, &root);
  CHECK(glow_fb_vec_field(&root, 0, 4, &v) == -1, "an offset of 2^32 - 16 read");
}

/* A string of 3 characters at 24: its NUL exactly the last byte is accepted; without it, or
 * with a NUL inside, refused. */
static void string_edges(void) {
  uint8_t b[256];
  size_t end = with_offset_field(b, 24) + 4 + 3 + 1;
  put32(b, 24, 3);
  memcpy(b + 28, "abc", 4);
  glow_fb fb;
  glow_fb_table root;
  open_root(&fb, b, end, &root);
  const char *s = glow_fb_string(&root, 0, NULL);
  CHECK(s && !strcmp(s, "abc"), "string ending at the end refused: %s", fb.err);
  open_root(&fb, b, end - 1, &root);
  CHECK(!glow_fb_string(&root, 0, NULL) && strstr(fb.err, "NUL"), "string without its NUL read: '%s'", fb.err);
  b[28 + 3] = 'd';
  open_root(&fb, b, end, &root);
  CHECK(!glow_fb_string(&root, 0, NULL) && strstr(fb.err, "not 3 bytes ended by a NUL"), "unterminated: '%s'", fb.err);
  b[28 + 3] = 0;
  b[29] = 0;
  open_root(&fb, b, end, &root);
  CHECK(!glow_fb_string(&root, 0, NULL) && glow_fb_failed(&fb), "a NUL inside the string read");
}

/* Tables: the vtable and the table's declared bytes must lie inside the file, and a field
 * inside the table's bytes. */
static void table_edges(void) {
  uint8_t b[256];
  glow_fb fb;
  glow_fb_table root;
  size_t n = with_offset_field(b, 24);
  CHECK(!open_root(&fb, b, n, &root), "a table ending at the end refused: %s", fb.err);
  CHECK(open_root(&fb, b, n - 1, &root) && strstr(fb.err, "a table"), "a table one byte past the end read: '%s'",
        fb.err);
  /* vtable past the end: soffset -64 points to byte 80 of 24 */
  with_offset_field(b, 24);
  put32(b, 16, (uint32_t)-64);
  CHECK(open_root(&fb, b, n, &root) && strstr(fb.err, "vtable"), "vtable past the end read: '%s'", fb.err);
  /* vtable before the start of the file */
  with_offset_field(b, 24);
  put32(b, 16, 17);
  CHECK(open_root(&fb, b, n, &root) && glow_fb_failed(&fb), "vtable before the file read");
  /* a vtable that declares more bytes than the file has left */
  with_offset_field(b, 24);
  put16(b, 8, 200);
  CHECK(open_root(&fb, b, n, &root) && strstr(fb.err, "a vtable"), "vtable of 200 bytes read: '%s'", fb.err);
  /* odd or too short vtable lengths */
  with_offset_field(b, 24);
  put16(b, 8, 5);
  CHECK(open_root(&fb, b, n, &root) && strstr(fb.err, "declares"), "odd vtable length read: '%s'", fb.err);
  /* field 0 whose 4 bytes end exactly at the table's end (offset 4 of 8) is read; at offset 5, refused */
  with_offset_field(b, 24);
  open_root(&fb, b, n, &root);
  CHECK(glow_fb_int(&root, 0, 4, -1) == 4 && !glow_fb_failed(&fb), "field at the table's end refused: %s", fb.err);
  put16(b, 12, 5);
  open_root(&fb, b, n, &root);
  CHECK(glow_fb_int(&root, 0, 4, -1) == -1 && strstr(fb.err, "field 0") && strstr(fb.err, "outside the table"),
        "field past the table's end read: '%s'", fb.err);
  /* after the first failure, every read returns its default and the first error stays */
  CHECK(glow_fb_int(&root, 0, 1, 7) == 7 && glow_fb_uint(&root, 0, 2, 9) == 9 && strstr(fb.err, "field 0"),
        "reads after a failure: '%s'", fb.err);
  /* fields the vtable does not list are absent, not errors */
  with_offset_field(b, 24);
  open_root(&fb, b, n, &root);
  CHECK(!glow_fb_has(&root, 1) && glow_fb_int(&root, 5, 8, 42) == 42 && !glow_fb_failed(&fb), "absent field: %s",
        fb.err);
  /* a sub-table field: the offset at 20 to a table at 24 whose vtable is the root's */
  with_offset_field(b, 24);
  put32(b, 24, 24 - 8);
  put32(b, 28, 7);
  glow_fb_table sub;
  open_root(&fb, b, 32, &root);
  CHECK(glow_fb_table_field(&root, 0, &sub) == 1 && glow_fb_int(&sub, 0, 4, -1) == 7, "shared vtable: %s", fb.err);
  open_root(&fb, b, 31, &root);
  CHECK(glow_fb_table_field(&root, 0, &sub) == -1 && sub.pos == 0, "a sub-table one byte short read");
}

static void root_edges(void) {
  uint8_t b[256];
  glow_fb fb;
  glow_fb_table root;
  size_t n = with_offset_field(b, 24);
  CHECK(open_root(&fb, b, 7, &root) && strstr(fb.err, "too short"), "7 bytes: '%s'", fb.err);
  memcpy(b + 4, "TFL3", 4);
  CHECK(open_root(&fb, b, n, &root) && strstr(fb.err, "'TFL3', not 'TEST'"), "identifier: '%s'", fb.err);
  memcpy(b + 4, "TEST", 4);
  put32(b, 0, 0);
  CHECK(open_root(&fb, b, n, &root) && strstr(fb.err, "offset of 0"), "root offset 0: '%s'", fb.err);
  put32(b, 0, 21);
  CHECK(open_root(&fb, b, n, &root) && strstr(fb.err, "outside the file"), "root past the end: '%s'", fb.err);
  put32(b, 0, 0xffffffffu);
  CHECK(open_root(&fb, b, n, &root) && glow_fb_failed(&fb), "root offset 2^32 - 1 read");
}

int main(void) {
  vector_edges();
  string_edges();
  table_edges();
  root_edges();
  if (failures)
    printf("%d failures\n", failures);
  else
    printf("flatbuf: all edges checked\n");
  return failures != 0;
}
