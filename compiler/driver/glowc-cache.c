/* glowc-cache: model-compiler's local compile cache (-cache-dir) seen from outside, as
 * `ccache -s/-z/-C` and sccache's --show-stats: its statistics, clearing, pruning to a size and
 * checking every entry. The work is cache-local.c's; this is its command line. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver.h"

static void usage(FILE *f) {
  fprintf(f,
          "USAGE: glowc-cache [-cache-dir=<dir>] <action>...\n"
          "The local compile cache of model-compiler -cache-dir: statistics, clearing,\n"
          "pruning. Actions run in the order given; safe while compiles use the cache.\n"
          "  -cache-dir=<dir>        The cache folder (default: the GLOWC_CACHE_DIR\n"
          "                          environment variable).\n"
          "  -s, -show-stats         Hits and misses (local and remote), entries stored\n"
          "                          and evicted (counted since -zero-stats), and the\n"
          "                          entries and bytes the folder holds now.\n"
          "  -z, -zero-stats         Sets the counters to 0.\n"
          "  -C, -clear              Removes every entry (the counters stay).\n"
          "  -prune=<bytes>[K|M|G]   Removes the least recently used entries until the\n"
          "                          folder holds at most this many bytes (K: 1024).\n"
          "  -verify                 Reads every entry; names each that does not check\n"
          "                          out (exit status 1 if any).\n"
          "  -help                   This text.\n"
          "A compile's key, to see why it misses: model-compiler -print-cache-key with the\n"
          "compile's options. Compiles bound the cache with -cache-max-size (or\n"
          "GLOWC_CACHE_MAX_SIZE).\n");
}

typedef struct {
  char what;      /* 's', 'z', 'C', 'p' (prune), 'v' (verify) */
  uint64_t size;  /* -prune's */
} action;

static int show_stats(const char *dir) {
  uint64_t c[GLOW_CACHE_NSTATS], entries, bytes;
  if (glow_cache_stats_read(dir, c) || glow_cache_usage(dir, &entries, &bytes)) {
    glow_error(dir, "cannot read the cache folder's statistics or entries");
    return -1;
  }
  static const char *const labels[GLOW_CACHE_NSTATS] = {"local hits",    "local misses", "remote hits",
                                                        "remote misses", "remote errors", "stored",
                                                        "evicted"};
  printf("%-16s %s\n", "cache folder", dir);
  for (int i = 0; i < GLOW_CACHE_NSTATS; i++)
    printf("%-16s %llu\n", labels[i], (unsigned long long)c[i]);
  uint64_t looked = c[GLOW_CACHE_STAT_LOCAL_HIT] + c[GLOW_CACHE_STAT_LOCAL_MISS];
  if (looked)
    printf("%-16s %.1f%%\n", "local hit rate", 100.0 * (double)c[GLOW_CACHE_STAT_LOCAL_HIT] / (double)looked);
  printf("%-16s %llu\n", "entries", (unsigned long long)entries);
  printf("%-16s %llu (%.1f MiB)\n", "bytes", (unsigned long long)bytes, (double)bytes / (1 << 20));
  return 0;
}

static int run(const char *dir, const action *a) {
  long removed;
  switch (a->what) {
  case 's':
    return show_stats(dir);
  case 'z':
    if (glow_cache_stats_zero(dir)) {
      glow_error(dir, "cannot write the statistics file %s/stats", dir);
      return -1;
    }
    return 0;
  case 'C':
  case 'p':
    removed = glow_cache_prune(dir, a->what == 'C' ? 0 : a->size);
    if (removed < 0) {
      glow_error(dir, "cannot lock or list the cache folder (is it writable?)");
      return -1;
    }
    printf("%ld entr%s removed\n", removed, removed == 1 ? "y" : "ies");
    return 0;
  default: {
    int bad = glow_cache_verify(dir);
    if (bad < 0)
      glow_error(dir, "cannot list the cache folder");
    else
      printf("%s\n", bad ? "some entries do not check out (a compile ignores and removes them)" : "every entry checks out");
    return bad ? -1 : 0;
  }
  }
}

int main(int argc, char **argv) {
  const char *dir = getenv("GLOWC_CACHE_DIR") && *getenv("GLOWC_CACHE_DIR") ? getenv("GLOWC_CACHE_DIR") : NULL;
  action *acts = glow_xcalloc((size_t)argc, sizeof *acts);
  int n = 0, bad = 0;
  for (int i = 1; i < argc; i++) {
    const char *v;
    if ((v = glow_option_match(argc, argv, &i, "cache-dir", 1))) {
      dir = v;
    } else if (glow_option_match(argc, argv, &i, "help", 0)) {
      usage(stdout);
      free(acts);
      return 0;
    } else if (glow_option_match(argc, argv, &i, "s", 0) || glow_option_match(argc, argv, &i, "show-stats", 0)) {
      acts[n++].what = 's';
    } else if (glow_option_match(argc, argv, &i, "z", 0) || glow_option_match(argc, argv, &i, "zero-stats", 0)) {
      acts[n++].what = 'z';
    } else if (glow_option_match(argc, argv, &i, "C", 0) || glow_option_match(argc, argv, &i, "clear", 0)) {
      acts[n++].what = 'C';
    } else if (glow_option_match(argc, argv, &i, "verify", 0)) {
      acts[n++].what = 'v';
    } else if ((v = glow_option_match(argc, argv, &i, "prune", 1))) {
      acts[n].what = 'p';
      bad |= glow_size_arg("-prune", v, &acts[n++].size) != 0;
    } else {
      glow_error("glowc-cache", "unknown option '%s' (see -help)", argv[i]);
      bad = 1;
    }
  }
  struct stat st;
  if (!bad && !n) {
    glow_error("glowc-cache", "nothing to do: give -show-stats, -zero-stats, -clear, -prune=<size> or -verify "
                              "(see -help)");
    bad = 1;
  } else if (!bad && !dir) {
    glow_error("glowc-cache", "no cache folder: give -cache-dir=<dir> or set GLOWC_CACHE_DIR");
    bad = 1;
  } else if (!bad && (stat(dir, &st) || !S_ISDIR(st.st_mode))) {
    glow_error(dir, "not a folder: no compile has used this cache yet, or -cache-dir/GLOWC_CACHE_DIR is misspelled");
    bad = 1;
  }
  for (int k = 0; !bad && k < n; k++)
    bad = run(dir, &acts[k]) != 0;
  free(acts);
  return bad;
}
