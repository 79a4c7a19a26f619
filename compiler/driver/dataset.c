/* -input-dataset: calibration tensors for one model input, one per file, as
 * raw bytes (rawbin), numbers in text (rawtxt) or NumPy arrays (*.npy). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver/driver.h"

static const char *usage_form = "<input name>,rawbin|rawtxt,<file or dir> (or Glow's <input name>,<kind>,dir,<dir> "
                                "and <input name>,<kind>,file,<list file>[,<path prefix>])";

static char *copy_n(const char *s, size_t n) {
  char *c = glow_xmalloc(n + 1);
  memcpy(c, s, n);
  c[n] = 0;
  return c;
}

static void add_file(glow_dataset *ds, char *path) {
  ds->files = glow_xrealloc(ds->files, sizeof *ds->files * (size_t)(ds->nfiles + 1));
  ds->files[ds->nfiles++] = path;
}

int glow_dataset_parse(const char *spec, glow_dataset *ds) {
  memset(ds, 0, sizeof *ds);
  ds->spec = spec;
  const char *c1 = strchr(spec, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
  if (!c1 || !c2 || c1 == spec || !c2[1]) {
    glow_error("-input-dataset", "'%s' is not %s", spec, usage_form);
    return -1;
  }
  ds->input = copy_n(spec, (size_t)(c1 - spec));
  size_t klen = (size_t)(c2 - c1 - 1);
  if (klen == 6 && !strncmp(c1 + 1, "rawbin", 6))
    ds->kind = GLOW_DATA_RAWBIN;
  else if (klen == 6 && !strncmp(c1 + 1, "rawtxt", 6))
    ds->kind = GLOW_DATA_RAWTXT;
  else {
    glow_error("-input-dataset", "unknown kind '%.*s' in '%s' (kinds: rawbin, rawtxt; *.npy files are read as NumPy "
                                 "arrays with either)", (int)klen, c1 + 1, spec);
    return -1;
  }
  /* Glow's "dir,<dir>" and "file,<list>[,<prefix>]"; anything else is one path (commas allowed). */
  const char *rest = c2 + 1, *c3 = strchr(rest, ',');
  if (c3 && c3 - rest == 3 && !strncmp(rest, "dir", 3)) {
    ds->source = GLOW_DATA_DIR;
    ds->path = glow_xstrdup(c3 + 1);
  } else if (c3 && c3 - rest == 4 && !strncmp(rest, "file", 4)) {
    ds->source = GLOW_DATA_LIST;
    const char *c4 = strchr(c3 + 1, ',');
    ds->path = c4 ? copy_n(c3 + 1, (size_t)(c4 - c3 - 1)) : glow_xstrdup(c3 + 1);
    ds->prefix = c4 ? glow_xstrdup(c4 + 1) : NULL;
  } else {
    ds->source = GLOW_DATA_PATH;
    ds->path = glow_xstrdup(rest);
  }
  if (!*ds->path) {
    glow_error("-input-dataset", "'%s' names no file or directory (%s)", spec, usage_form);
    return -1;
  }
  return 0;
}

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int list_dir(glow_dataset *ds, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    glow_error(dir, "cannot read the -input-dataset directory of input '%s': %s", ds->input, strerror(errno));
    return -1;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    char *p = glow_xmalloc(len);
    snprintf(p, len, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
      add_file(ds, p);
    else
      free(p);
  }
  closedir(d);
  if (ds->nfiles) /* qsort takes no NULL, even for no elements */
    qsort(ds->files, (size_t)ds->nfiles, sizeof *ds->files, by_string);
  if (!ds->nfiles) {
    glow_error(dir, "the -input-dataset directory of input '%s' holds no files", ds->input);
    return -1;
  }
  return 0;
}

/* Glow's list file: a path a line; the rest of a line after a comma or a space is ignored. */
static int list_file(glow_dataset *ds) {
  FILE *f = fopen(ds->path, "r");
  if (!f) {
    glow_error(ds->path, "cannot read the -input-dataset list of input '%s': %s", ds->input, strerror(errno));
    return -1;
  }
  char line[8192];
  while (fgets(line, sizeof line, f)) {
    size_t n = strcspn(line, ", \t\r\n");
    if (!n)
      continue;
    const char *pre = ds->prefix ? ds->prefix : "";
    int slash = *pre && pre[strlen(pre) - 1] != '/';
    size_t len = strlen(pre) + n + 2;
    char *p = glow_xmalloc(len);
    snprintf(p, len, "%s%s%.*s", pre, slash ? "/" : "", (int)n, line);
    add_file(ds, p);
  }
  fclose(f);
  if (!ds->nfiles) {
    glow_error(ds->path, "the -input-dataset list of input '%s' names no files", ds->input);
    return -1;
  }
  return 0;
}

int glow_dataset_list(glow_dataset *ds) {
  if (ds->source == GLOW_DATA_LIST)
    return list_file(ds);
  struct stat st;
  if (stat(ds->path, &st) != 0) {
    glow_error(ds->path, "cannot read the -input-dataset of input '%s': %s", ds->input, strerror(errno));
    return -1;
  }
  if (S_ISDIR(st.st_mode))
    return list_dir(ds, ds->path);
  if (ds->source == GLOW_DATA_DIR) {
    glow_error(ds->path, "the -input-dataset of input '%s' says dir, but this is not a directory", ds->input);
    return -1;
  }
  add_file(ds, glow_xstrdup(ds->path));
  return 0;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

static int host_is_big_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 0;
}

/* Little-endian file bytes to host order, in place. */
static void from_le(void *data, size_t esize, int64_t n) {
  if (esize < 2 || !host_is_big_endian())
    return;
  uint8_t *p = data;
  for (int64_t i = 0; i < n; i++, p += esize)
    for (size_t a = 0, b = esize - 1; a < b; a++, b--) {
      uint8_t t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
}

static const char *describe(const glow_value *v, char *buf, size_t cap) { return glow_shape_str(v, buf, cap); }

static int read_rawbin(const char *path, const glow_value *v, void *dst) {
  uint8_t *data;
  size_t size;
  if (glow_read_file(path, &data, &size))
    return -1;
  size_t want = glow_value_bytes(v);
  char s[160];
  if (size != want) {
    glow_error(path, "rawbin file holds %zu bytes; input '%s' (%s) needs exactly %zu", size, v->name,
               describe(v, s, sizeof s), want);
    free(data);
    return -1;
  }
  memcpy(dst, data, want);
  from_le(dst, glow_dtype_size(v->dt), glow_value_numel(v));
  free(data);
  return 0;
}

static int read_rawtxt(const char *path, const glow_value *v, void *dst) {
  uint8_t *data;
  size_t size;
  if (glow_read_file(path, &data, &size))
    return -1;
  int64_t n = glow_value_numel(v), k = 0;
  int line = 1, rc = 0;
  char s[160];
  for (char *p = (char *)data; *p && !rc;) {
    if (*p == '\n')
      line++;
    if (isspace((unsigned char)*p) || *p == ',') {
      p++;
      continue;
    }
    char *end;
    errno = 0;
    double d = 0;
    long long i = 0;
    if (glow_dtype_is_float(v->dt))
      d = strtod(p, &end);
    else
      i = strtoll(p, &end, 10);
    if (end == p || (*end && !isspace((unsigned char)*end) && *end != ',') || errno == ERANGE) {
      size_t len = strcspn(p, ", \t\r\n");
      glow_error(path, "line %d: '%.*s' is not %s number for input '%s' (%s)", line, (int)(len > 40 ? 40 : len), p,
                 glow_dtype_is_float(v->dt) ? "a" : "an integer", v->name, describe(v, s, sizeof s));
      rc = -1;
    } else if (k < n) {
      if (glow_dtype_is_float(v->dt))
        glow_elem_set(v->dt, dst, k, d);
      else
        glow_elem_seti(v->dt, dst, k, i);
    }
    k++;
    p = end;
  }
  if (!rc && k != n) {
    glow_error(path, "rawtxt file holds %lld numbers; input '%s' (%s) needs exactly %lld", (long long)k, v->name,
               describe(v, s, sizeof s), (long long)n);
    rc = -1;
  }
  free(data);
  return rc;
}

static int read_npy(const char *path, const glow_value *v, void *dst) {
  glow_npy a;
  if (glow_npy_read(path, &a))
    return -1;
  char s[160];
  int rc = -1;
  if (a.dt != v->dt || a.numel != glow_value_numel(v)) {
    glow_error(path, ".npy array holds %lld %s values; input '%s' is %s", (long long)a.numel, glow_dtype_name(a.dt),
               v->name, describe(v, s, sizeof s));
  } else {
    memcpy(dst, a.data, glow_value_bytes(v));
    from_le(dst, glow_dtype_size(v->dt), a.numel);
    rc = 0;
  }
  glow_npy_free(&a);
  return rc;
}

int glow_dataset_check_size(const glow_dataset *ds, const glow_value *v) {
  if (ds->kind != GLOW_DATA_RAWBIN)
    return 0;
  int rc = 0;
  char s[160];
  for (int i = 0; i < ds->nfiles; i++) {
    struct stat st;
    const char *f = ds->files[i];
    if (ends_with(f, ".npy"))
      continue;
    if (stat(f, &st) != 0) {
      glow_error(f, "cannot read: %s", strerror(errno));
      rc = -1;
    } else if ((uint64_t)st.st_size != glow_value_bytes(v)) {
      glow_error(f, "rawbin file holds %llu bytes; input '%s' (%s) needs exactly %zu", (unsigned long long)st.st_size,
                 v->name, describe(v, s, sizeof s), glow_value_bytes(v));
      rc = -1;
    }
  }
  return rc;
}

int glow_dataset_read(const glow_dataset *ds, int i, const glow_value *v, void *dst) {
  const char *f = ds->files[i];
  if (ends_with(f, ".npy"))
    return read_npy(f, v, dst);
  return ds->kind == GLOW_DATA_RAWBIN ? read_rawbin(f, v, dst) : read_rawtxt(f, v, dst);
}

void glow_dataset_free(glow_dataset *ds) {
  for (int i = 0; i < ds->nfiles; i++)
    free(ds->files[i]);
  free(ds->files);
  free(ds->input);
  free(ds->path);
  free(ds->prefix);
}
