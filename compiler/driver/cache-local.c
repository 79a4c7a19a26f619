/* The local compile cache's statistics and size bound (driver.h). Beside the entries
 * (<dir>/<key[0:2]>/<key>, written to a temporary name and renamed, cache.c) the folder holds
 * "stats", counters rewritten in place under flock(), and "lock", held by whoever removes
 * entries. Removing is safe against readers: a reader opens an entry, then reads it from the
 * open file, which unlink() leaves whole; an entry is never written in place, so none is torn. */
#define _DEFAULT_SOURCE /* flock() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "driver/driver.h"

static const char *const stat_names[] = {"local_hit",    "local_miss", "remote_hit", "remote_miss",
                                         "remote_error", "stored",     "evicted"};
_Static_assert(sizeof stat_names / sizeof *stat_names == GLOW_CACHE_NSTATS, "a name for every counter");

const char *glow_cache_stat_name(glow_cache_stat s) { return stat_names[s]; }

static char *join(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = glow_xmalloc(n);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

/* <dir>/<name> opened and flock()ed (shared or exclusive), made (with <dir>) if `make`; -1 if not. */
static int open_locked(const char *dir, const char *name, int exclusive, int make) {
  char *path = join(dir, name);
  int flags = (make ? O_RDWR | O_CREAT : O_RDONLY) | O_CLOEXEC;
  int fd = open(path, flags, 0666);
  if (fd < 0 && errno == ENOENT && make && mkdir(dir, 0777) == 0)
    fd = open(path, flags, 0666);
  free(path);
  if (fd < 0)
    return -1;
  while (flock(fd, exclusive ? LOCK_EX : LOCK_SH))
    if (errno != EINTR) {
      close(fd);
      return -1;
    }
  return fd;
}

/* "stats": one "<name> <count>" line per counter. Unknown lines are skipped. */
static void stats_parse(int fd, uint64_t c[GLOW_CACHE_NSTATS]) {
  char buf[1024];
  ssize_t r = pread(fd, buf, sizeof buf - 1, 0);
  buf[r > 0 ? r : 0] = 0;
  memset(c, 0, sizeof *c * GLOW_CACHE_NSTATS);
  for (char *line = buf; *line;) {
    char *end = strchr(line, '\n');
    if (!end)
      break; /* a line cut short: not a count */
    *end = 0;
    char *sp = strchr(line, ' ');
    for (int i = 0; sp && i < GLOW_CACHE_NSTATS; i++)
      if ((size_t)(sp - line) == strlen(stat_names[i]) && !strncmp(line, stat_names[i], (size_t)(sp - line)))
        c[i] = strtoull(sp + 1, NULL, 10);
    line = end + 1;
  }
}

/* Adds n to counter s (s < 0: zeroes them all), under the stats file's exclusive lock. */
static int stats_add(const char *dir, int s, uint64_t n) {
  int fd = open_locked(dir, "stats", 1, 1);
  if (fd < 0)
    return -1;
  uint64_t c[GLOW_CACHE_NSTATS];
  stats_parse(fd, c);
  if (s >= 0)
    c[s] += n;
  else
    memset(c, 0, sizeof c);
  glow_strbuf b = {0};
  for (int i = 0; i < GLOW_CACHE_NSTATS; i++)
    glow_sb_printf(&b, "%s %llu\n", stat_names[i], (unsigned long long)c[i]);
  int ok = pwrite(fd, b.s, b.len, 0) == (ssize_t)b.len && ftruncate(fd, (off_t)b.len) == 0;
  glow_sb_free(&b);
  close(fd);
  return ok ? 0 : -1;
}

void glow_cache_stat_count(const glow_driver_options *d, glow_cache_stat s) {
  if (d->cache_dir)
    stats_add(d->cache_dir, (int)s, 1);
}

int glow_cache_stats_read(const char *dir, uint64_t c[GLOW_CACHE_NSTATS]) {
  memset(c, 0, sizeof *c * GLOW_CACHE_NSTATS);
  int fd = open_locked(dir, "stats", 0, 0);
  if (fd < 0)
    return errno == ENOENT ? 0 : -1; /* nothing counted yet */
  stats_parse(fd, c);
  close(fd);
  return 0;
}

int glow_cache_stats_zero(const char *dir) { return stats_add(dir, -1, 0); }

/* The entries of a cache folder (the files <dir>/<2 hex>/<64 hex>). */
typedef struct {
  char *path;
  uint64_t size;
  struct timespec mtime;
} entry_file;
typedef struct {
  entry_file *e;
  int n, cap;
  uint64_t bytes;
} listing;

static int is_hex(const char *s, size_t n) { return strlen(s) == n && strspn(s, "0123456789abcdef") == n; }

/* With `sweep`, also removes temporary files over an hour old (left by a compile that was killed). */
static int scan(const char *dir, listing *l, int sweep) {
  memset(l, 0, sizeof *l);
  DIR *top = opendir(dir);
  if (!top)
    return -1;
  time_t stale = time(NULL) - 3600;
  for (struct dirent *t; (t = readdir(top));) {
    if (!is_hex(t->d_name, 2))
      continue;
    char *sub = join(dir, t->d_name);
    DIR *s = opendir(sub);
    for (struct dirent *f; s && (f = readdir(s));) {
      char *path = join(sub, f->d_name);
      struct stat st;
      if (lstat(path, &st) || !S_ISREG(st.st_mode)) {
        free(path);
      } else if (is_hex(f->d_name, 64)) {
        if (l->n == l->cap)
          l->e = glow_xrealloc(l->e, sizeof *l->e * (size_t)(l->cap = l->cap ? 2 * l->cap : 64));
        l->e[l->n++] = (entry_file){path, (uint64_t)st.st_size, st.st_mtim};
        l->bytes += (uint64_t)st.st_size;
      } else {
        if (sweep && strstr(f->d_name, ".tmp-") && st.st_mtime < stale)
          unlink(path);
        free(path);
      }
    }
    if (s)
      closedir(s);
    free(sub);
  }
  closedir(top);
  return 0;
}

static void listing_free(listing *l) {
  for (int i = 0; i < l->n; i++)
    free(l->e[i].path);
  free(l->e);
}

static int by_use(const void *a, const void *b) {
  const entry_file *x = a, *y = b;
  if (x->mtime.tv_sec != y->mtime.tv_sec)
    return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
  if (x->mtime.tv_nsec != y->mtime.tv_nsec)
    return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
  return strcmp(x->path, y->path);
}

int glow_cache_usage(const char *dir, uint64_t *entries, uint64_t *bytes) {
  listing l;
  if (scan(dir, &l, 0))
    return -1;
  *entries = (uint64_t)l.n;
  *bytes = l.bytes;
  listing_free(&l);
  return 0;
}

long glow_cache_prune(const char *dir, uint64_t max) {
  int lock = open_locked(dir, "lock", 1, 1); /* one remover at a time: each sees the others' removals */
  listing l;
  if (lock < 0 || scan(dir, &l, 1)) {
    if (lock >= 0)
      close(lock);
    return -1;
  }
  if (l.n) /* l.e is NULL without entries, which qsort may not take */
    qsort(l.e, (size_t)l.n, sizeof *l.e, by_use);
  long removed = 0;
  for (int i = 0; i < l.n && l.bytes > max; i++) {
    struct stat st;
    if (lstat(l.e[i].path, &st)) { /* gone already */
      l.bytes -= l.e[i].size;
      continue;
    }
    if (max && (st.st_mtim.tv_sec != l.e[i].mtime.tv_sec || st.st_mtim.tv_nsec != l.e[i].mtime.tv_nsec))
      continue; /* used (or stored again) since the scan: now among the most recent */
    if (!unlink(l.e[i].path)) {
      l.bytes -= l.e[i].size;
      removed++;
    }
  }
  listing_free(&l);
  close(lock);
  if (max && removed)
    stats_add(dir, GLOW_CACHE_STAT_EVICTED, (uint64_t)removed);
  return removed;
}

int glow_cache_verify(const char *dir) {
  listing l;
  if (scan(dir, &l, 0))
    return -1;
  int bad = 0;
  for (int i = 0; i < l.n; i++) {
    uint8_t *bytes;
    size_t size;
    glow_cache_entry e;
    const char *key = strrchr(l.e[i].path, '/') + 1;
    if (glow_read_file(l.e[i].path, &bytes, &size)) { /* reported */
      bad++;
      continue;
    }
    const char *why = glow_cache_entry_decode(bytes, size, key, &e);
    if (why) {
      glow_error(l.e[i].path, "bad cache entry: %s", why);
      bad++;
    }
    free(bytes);
  }
  listing_free(&l);
  return bad;
}

void glow_cache_local_used(const char *path) { utimensat(AT_FDCWD, path, NULL, 0); }

void glow_cache_local_stored(const glow_driver_options *d) {
  glow_cache_stat_count(d, GLOW_CACHE_STAT_STORED);
  if (!d->cache_max_size)
    return;
  long removed = glow_cache_prune(d->cache_dir, d->cache_max_size);
  if (removed > 0 && d->verbose)
    glow_note("glowc: cache: %ld least recently used entr%s removed (-cache-max-size=%llu bytes)\n", removed,
              removed == 1 ? "y" : "ies", (unsigned long long)d->cache_max_size);
}
