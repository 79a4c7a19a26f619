/* -bundle-objects: the bundle's object and the user's objects in one ar archive,
 * written as <name>.o (a linker reads an archive under any name), as Glow archives
 * them. The archive and its symbol index come from LLVM's own llvm-ar (the LLVM
 * this glowc is built with; its C API has no archive writer), run without a
 * shell in a private temporary folder that is removed in every case. llvm-ar
 * writes deterministic archives: no dates, owners or modes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver/driver.h"

#ifndef GLOWC_LLVM_AR
#define GLOWC_LLVM_AR "llvm-ar-19"
#endif

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* An object as named: a path, or Glow's registered object in $GLOWC_BUNDLE_OBJECTS_DIR.
 * @return the path (malloc'd), or NULL after an error. */
char *glow_bundle_object_path(const char *name) {
  if (!access(name, R_OK))
    return glow_xstrdup(name);
  const char *dir = getenv("GLOWC_BUNDLE_OBJECTS_DIR");
  if (dir && *dir && !strchr(name, '/')) {
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = glow_xmalloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    if (!access(p, R_OK))
      return p;
    free(p);
  }
  glow_error(name, "-bundle-objects: no such object file%s (give its path%s)", dir && *dir ? " here or in "
             "$GLOWC_BUNDLE_OBJECTS_DIR" : "", dir && *dir ? "" : ", or put it in $GLOWC_BUNDLE_OBJECTS_DIR");
  return NULL;
}

static int write_all(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(data, 1, size, f) == size;
  ok &= f && fclose(f) == 0;
  if (!ok)
    glow_error(path, "-bundle-objects: cannot write: %s", strerror(errno));
  return ok ? 0 : -1;
}

int glow_bundle_archive(const glow_driver_options *d, const void *obj, size_t size, void **ar, size_t *ar_size) {
  char *made = glow_temp_dir("-bundle-objects", "the archive");
  if (!made)
    return -1;
  int n = d->nbundle_objects, rc = -1;
  char **paths = glow_xcalloc((size_t)n, sizeof *paths);
  char **argv = glow_xcalloc((size_t)n + 6, sizeof *argv);
  size_t nlen = strlen(d->bundle.network_name) + 3;
  char *oname = glow_xmalloc(nlen);
  snprintf(oname, nlen, "%s.o", d->bundle.network_name);
  char *member = glow_temp_path(made, oname), *archive = glow_temp_path(made, "archive.a");
  char *log = glow_temp_path(made, "log");
  argv[0] = GLOWC_LLVM_AR;
  argv[1] = "rcsD";
  argv[2] = archive;
  argv[3] = member;
  int bad = write_all(member, obj, size) != 0;
  for (int i = 0; i < n && !bad; i++) {
    bad = !(paths[i] = glow_bundle_object_path(d->bundle_objects[i]));
    for (int k = 0; !bad && k <= i; k++) /* members are found by their names: no two alike */
      if (!strcmp(base_name(d->bundle_objects[i]), k < i ? base_name(d->bundle_objects[k]) : base_name(member))) {
        glow_error(d->bundle_objects[i], "-bundle-objects: an archive member is already named %s (rename the object)",
                   base_name(d->bundle_objects[i]));
        bad = 1;
      }
    argv[4 + i] = paths[i];
  }
  if (!bad && !glow_run_tool("-bundle-objects", argv, log)) {
    uint8_t *bytes = NULL;
    if (!glow_read_file(archive, &bytes, ar_size)) {
      *ar = bytes;
      rc = 0;
    } else {
      glow_error(archive, "-bundle-objects: cannot read the archive llvm-ar wrote");
    }
  }
  glow_temp_dir_remove(made);
  free(oname);
  for (int i = 0; i < n; i++)
    free(paths[i]);
  free(paths);
  free(argv);
  free(member);
  free(archive);
  free(log);
  return rc;
}
