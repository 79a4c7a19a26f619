/* NumPy .npy files (format versions 1 to 3): little-endian numeric arrays in C
 * order, read for model-profiler's datasets and glowc-run's inputs, written for
 * glowc-run's outputs. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/npy.h"

static const struct {
  const char *descr;
  glow_dtype dt;
} npy_types[] = {{"f4", GLOW_DT_F32}, {"f8", GLOW_DT_F64}, {"f2", GLOW_DT_F16}, {"i1", GLOW_DT_I8},
                 {"u1", GLOW_DT_U8},  {"i2", GLOW_DT_I16}, {"u2", GLOW_DT_U16}, {"i4", GLOW_DT_I32},
                 {"u4", GLOW_DT_U32}, {"i8", GLOW_DT_I64}, {"u8", GLOW_DT_U64}, {"b1", GLOW_DT_BOOL}};
#define NPY_NTYPES (sizeof npy_types / sizeof npy_types[0])

/* NumPy's descr ("<f4", "|u1", ...) as a dtype; UNDEF if glowc has no such type. */
static glow_dtype npy_dtype(const char *descr, size_t len) {
  if (len != 3 || (descr[0] != '<' && descr[0] != '|'))
    return GLOW_DT_UNDEF;
  for (size_t i = 0; i < NPY_NTYPES; i++)
    if (!strncmp(descr + 1, npy_types[i].descr, 2))
      return npy_types[i].dt;
  return GLOW_DT_UNDEF;
}

/* The value of 'key' in the header dict: a pointer just past "'key':" and spaces. */
static const char *npy_field(const char *hdr, const char *key) {
  char pat[32];
  snprintf(pat, sizeof pat, "'%s'", key);
  const char *p = strstr(hdr, pat);
  if (!p)
    return NULL;
  p += strlen(pat);
  while (*p == ' ')
    p++;
  if (*p++ != ':')
    return NULL;
  while (*p == ' ')
    p++;
  return p;
}

int glow_npy_read(const char *path, glow_npy *a) {
  memset(a, 0, sizeof *a);
  if (glow_read_file(path, &a->file, &a->file_size))
    return -1;
  const uint8_t *d = a->file;
  size_t size = a->file_size, hlen = 0, off = 0;
  if (size >= 10 && !memcmp(d, "\x93NUMPY", 6) && d[6] == 1) {
    hlen = d[8] | (size_t)d[9] << 8;
    off = 10;
  } else if (size >= 12 && !memcmp(d, "\x93NUMPY", 6) && (d[6] == 2 || d[6] == 3)) {
    hlen = d[8] | (size_t)d[9] << 8 | (size_t)d[10] << 16 | (size_t)d[11] << 24;
    off = 12;
  }
  if (!off || hlen > size - off) {
    glow_error(path, "not a NumPy .npy file (version 1 to 3)");
    glow_npy_free(a);
    return -1;
  }
  char *hdr = glow_xmalloc(hlen + 1);
  memcpy(hdr, d + off, hlen);
  hdr[hlen] = 0;
  const char *descr = npy_field(hdr, "descr"), *fortran = npy_field(hdr, "fortran_order"),
             *shape = npy_field(hdr, "shape");
  if (descr && (*descr == '\'' || *descr == '"') && strchr(descr + 1, *descr))
    a->dt = npy_dtype(descr + 1, (size_t)(strchr(descr + 1, *descr) - descr - 1));
  int shape_ok = shape && *shape == '(';
  a->numel = 1;
  for (const char *p = shape_ok ? shape + 1 : ""; shape_ok && *p != ')'; p++) {
    if (isdigit((unsigned char)*p)) {
      char *end;
      long long v = strtoll(p, &end, 10);
      if (a->rank == GLOW_MAX_RANK || v > ((int64_t)1 << 40)) {
        shape_ok = 0;
        break;
      }
      a->dims[a->rank++] = v;
      a->numel *= v;
      p = end - 1;
    } else if (*p != ',' && *p != ' ') {
      shape_ok = 0;
    }
  }
  int fortran_order = fortran && !strncmp(fortran, "True", 4), rc = -1;
  size_t want = a->dt ? (size_t)a->numel * glow_dtype_size(a->dt) : 0;
  if (!a->dt || !shape_ok || !fortran)
    glow_error(path, "cannot read this .npy file's header (glowc reads little-endian numeric arrays of rank up to "
               "%d): %s", GLOW_MAX_RANK, hdr);
  else if (fortran_order && a->rank > 1)
    glow_error(path, ".npy array is in Fortran order; save it in C order (numpy.ascontiguousarray)");
  else if (size - off - hlen != want)
    glow_error(path, ".npy file holds %zu bytes of data; its header says %zu", size - off - hlen, want);
  else
    rc = 0;
  free(hdr);
  if (rc) {
    glow_npy_free(a);
    return -1;
  }
  a->data = d + off + hlen;
  a->bytes = want;
  return 0;
}

void glow_npy_free(glow_npy *a) {
  free(a->file);
  a->file = NULL;
  a->data = NULL;
}

int glow_npy_encode(glow_dtype dt, int rank, const int64_t *dims, const void *data, size_t bytes, glow_strbuf *out) {
  const char *descr = NULL;
  for (size_t i = 0; i < NPY_NTYPES; i++)
    if (npy_types[i].dt == dt)
      descr = npy_types[i].descr;
  if (!descr)
    return -1;
  glow_strbuf h = {0};
  glow_sb_printf(&h, "{'descr': '%c%s', 'fortran_order': False, 'shape': (", dt == GLOW_DT_U8 || dt == GLOW_DT_I8 ||
                 dt == GLOW_DT_BOOL ? '|' : '<', descr);
  for (int d = 0; d < rank; d++)
    glow_sb_printf(&h, "%lld%s", (long long)dims[d], rank == 1 ? "," : d + 1 < rank ? ", " : "");
  glow_sb_printf(&h, "), }");
  while ((10 + h.len + 1) % 64) /* the data 64-byte aligned, as NumPy writes it */
    glow_sb_printf(&h, " ");
  glow_sb_printf(&h, "\n");
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(h.len & 0xff),
                           (unsigned char)(h.len >> 8)};
  glow_sb_append(out, (const char *)pre, sizeof pre);
  glow_sb_append(out, h.s, h.len);
  glow_sb_append(out, data, bytes);
  glow_sb_free(&h);
  return 0;
}
