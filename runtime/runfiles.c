/* Bazel's runfiles (glow-runtime.h, glow_runfile): a file's runfiles path resolved through a
 * runfiles manifest or a runfiles folder, looked for where Bazel's own runfiles libraries look. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glow-runtime.h"
#include "runtime-internal.h"

enum { FOUND = 1, ABSENT = 0, TOO_LONG = -1 };

static int copy(char *out, size_t cap, const char *a, const char *b) {
  int n = snprintf(out, cap, "%s%s", a, b);
  return n < 0 || (size_t)n >= cap ? TOO_LONG : FOUND;
}

/* A manifest's lines are "<runfiles path> <real path>". */
static int from_manifest(const char *manifest, const char *rloc, char *out, size_t cap) {
  FILE *f = fopen(manifest, "r");
  if (!f)
    return ABSENT;
  size_t n = strlen(rloc);
  char line[8192];
  int rc = ABSENT;
  while (rc == ABSENT && fgets(line, sizeof line, f)) {
    if (strncmp(line, rloc, n) || line[n] != ' ')
      continue;
    line[strcspn(line, "\r\n")] = 0;
    rc = copy(out, cap, line + n + 1, "");
  }
  fclose(f);
  return rc;
}

static int from_dir(const char *dir, const char *rloc, char *out, size_t cap) {
  char path[8192];
  FILE *f = snprintf(path, sizeof path, "%s/%s", dir, rloc) < (int)sizeof path ? fopen(path, "rb") : NULL;
  if (!f)
    return ABSENT;
  fclose(f);
  return copy(out, cap, path, "");
}

/* One place to look: a manifest or a folder, its description appended to `tried`. */
static int look(int manifest, const char *where, const char *what, const char *rloc, char *out, size_t cap,
                char *tried, size_t tried_cap) {
  size_t len = strlen(tried);
  int n = snprintf(tried + len, tried_cap - len, "%s%s %s", len ? ", " : "", what, where);
  if (n < 0 || (size_t)n >= tried_cap - len) /* a list too long for the message: it ends in "..." */
    memcpy(tried + tried_cap - 4, "...", 4);
  return manifest ? from_manifest(where, rloc, out, cap) : from_dir(where, rloc, out, cap);
}

int glow_runfile(const char *rloc, const char *argv0, char *out, size_t cap) {
  if (!rloc || !*rloc || !out || !cap)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "glow_runfile: NULL or empty argument");
  char tried[1024] = "", beside[4096];
  int rc = ABSENT;
  const char *m = getenv("RUNFILES_MANIFEST_FILE"), *d = getenv("RUNFILES_DIR"), *t = getenv("TEST_SRCDIR");
  if (m && *m)
    rc = look(1, m, "the manifest $RUNFILES_MANIFEST_FILE", rloc, out, cap, tried, sizeof tried);
  if (rc == ABSENT && d && *d)
    rc = look(0, d, "the folder $RUNFILES_DIR", rloc, out, cap, tried, sizeof tried);
  if (rc == ABSENT && t && *t)
    rc = look(0, t, "the folder $TEST_SRCDIR", rloc, out, cap, tried, sizeof tried);
  /* Beside the program: a binary started from bazel-bin, or by a tool that sets no variable. */
  static const char *const suffix[] = {".runfiles_manifest", ".runfiles/MANIFEST", ".runfiles"};
  for (int i = 0; rc == ABSENT && argv0 && *argv0 && i < 3; i++)
    if (copy(beside, sizeof beside, argv0, suffix[i]) == FOUND)
      rc = look(i < 2, beside, i < 2 ? "the manifest" : "the folder", rloc, out, cap, tried, sizeof tried);
  if (rc == TOO_LONG)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "%s: its path among the runfiles is longer than the %zu bytes given", rloc,
                        cap);
  if (rc == ABSENT)
    return glow_rt_fail(GLOW_RT_ERR_NOT_FOUND, "%s: not among the program's runfiles (looked in %s); run it with "
                        "bazel run, or give the file's path", rloc, *tried ? tried : "nothing: no RUNFILES_MANIFEST_FILE, "
                        "RUNFILES_DIR or program path");
  return GLOW_RT_OK;
}
