/* Output files are written to "<path>.tmp-<pid>" and renamed together at the end,
 * so a failed or interrupted compile never leaves a half-written bundle. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glowc.h"

struct glow_outset {
  int n, cap;
  char **final, **tmp;
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

/* Room for one more file. The arrays grow by copy, and the old ones go only after the new ones are in
 * place: a signal handler that runs meanwhile reads one or the other, whole. */
static void outset_grow(glow_outset *o) {
  if (o->n < o->cap)
    return;
  int cap = o->cap ? o->cap * 2 : 16;
  char **final = glow_xcalloc((size_t)cap, sizeof *final), **tmp = glow_xcalloc((size_t)cap, sizeof *tmp);
  for (int i = 0; i < o->n; i++) {
    final[i] = o->final[i];
    tmp[i] = o->tmp[i];
  }
  char **old_final = o->final, **old_tmp = o->tmp;
  o->final = final;
  o->tmp = tmp;
  o->cap = cap;
  free(old_final);
  free(old_tmp);
}

int glow_outset_write(glow_outset *o, const char *path, const void *data, size_t size) {
  outset_grow(o);
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
  free(o->tmp);
  free(o->final);
  free(o);
}
