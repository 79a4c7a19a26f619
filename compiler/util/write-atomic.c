/* Output files are written to "<path>.tmp-<pid>" and renamed together at the end,
 * so a failed or interrupted compile never leaves a half-written bundle. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glowc.h"

struct glow_outset {
  int n;
  char *final[16];
  char *tmp[16];
};

/* Temporaries to remove if a signal interrupts the compile. */
static glow_outset *active;

static void on_signal(int sig) {
  if (active)
    for (int i = 0; i < active->n; i++)
      if (active->tmp[i])
        unlink(active->tmp[i]);
  signal(sig, SIG_DFL);
  raise(sig);
}

glow_outset *glow_outset_create(void) {
  glow_outset *o = glow_xcalloc(1, sizeof *o);
  active = o;
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  return o;
}

int glow_outset_write(glow_outset *o, const char *path, const void *data, size_t size) {
  GLOW_ASSERT(o->n < 16);
  size_t len = strlen(path) + 32;
  char *tmp = glow_xmalloc(len);
  snprintf(tmp, len, "%s.tmp-%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    glow_error(path, "cannot write output file: %s (is its directory present and writable?)",
               strerror(errno));
    free(tmp);
    return -1;
  }
  o->final[o->n] = glow_xstrdup(path);
  o->tmp[o->n] = tmp;
  o->n++;
  int bad = size && fwrite(data, 1, size, f) != size;
  bad |= fclose(f) != 0;
  if (bad) {
    glow_error(path, "cannot write output file: %s", strerror(errno));
    return -1;
  }
  return 0;
}

int glow_outset_commit(glow_outset *o) {
  for (int i = 0; i < o->n; i++) {
    if (rename(o->tmp[i], o->final[i]) != 0) {
      glow_error(o->final[i], "cannot rename output into place: %s", strerror(errno));
      /* No half bundle: the files already renamed go too (the temporaries go in glow_outset_free). */
      for (int k = 0; k < i; k++)
        unlink(o->final[k]);
      return -1;
    }
    free(o->tmp[i]);
    o->tmp[i] = NULL;
  }
  return 0;
}

void glow_outset_free(glow_outset *o) {
  if (!o)
    return;
  for (int i = 0; i < o->n; i++) {
    if (o->tmp[i])
      unlink(o->tmp[i]);
    free(o->tmp[i]);
    free(o->final[i]);
  }
  if (active == o)
    active = NULL;
  free(o);
}
