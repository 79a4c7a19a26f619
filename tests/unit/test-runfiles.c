/* glow_runfile (runtime/runfiles.c): a runfiles path found through $RUNFILES_MANIFEST_FILE,
 * $RUNFILES_DIR, $TEST_SRCDIR and beside argv0 (<argv0>.runfiles_manifest, <argv0>.runfiles/),
 * in that order; a path not listed, or longer than the caller's buffer, an error saying so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "glow-runtime.h"

static int failures;
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c)))

static char tmp[] = "/tmp/test-runfiles-XXXXXX";

static const char *at(const char *rel) {
  static char p[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(p[k], sizeof p[k], "%s/%s", tmp, rel);
  return p[k];
}

static void put(const char *rel, const char *text) {
  char dir[512];
  snprintf(dir, sizeof dir, "%s", at(rel));
  for (char *s = dir + strlen(tmp) + 1; (s = strchr(s, '/')); *s++ = '/') {
    *s = 0;
    mkdir(dir, 0777);
  }
  FILE *f = fopen(at(rel), "w");
  fputs(text, f);
  fclose(f);
}

int main(void) {
  if (!mkdtemp(tmp)) {
    perror("mkdtemp");
    return 1;
  }
  unsetenv("RUNFILES_MANIFEST_FILE");
  unsetenv("RUNFILES_DIR");
  unsetenv("TEST_SRCDIR");
  char out[512], prog[512];
  const char *w = "ws/pkg/net.bundle/net.weights.bin";

  /* Beside the program: its runfiles folder, then (for a program without one) its manifest. */
  put("prog.runfiles/ws/pkg/net.bundle/net.weights.bin", "w");
  snprintf(prog, sizeof prog, "%s", at("prog"));
  CHECK(glow_runfile(w, prog, out, sizeof out) == GLOW_RT_OK && !strcmp(out, at("prog.runfiles/ws/pkg/net.bundle/net.weights.bin")));
  put("bare.runfiles_manifest", "ws/pkg/net.bundle/net.weights.bin2 /wrong\nws/pkg/net.bundle/net.weights.bin /real/w.bin\n");
  snprintf(prog, sizeof prog, "%s", at("bare"));
  CHECK(glow_runfile(w, prog, out, sizeof out) == GLOW_RT_OK && !strcmp(out, "/real/w.bin"));

  /* The variables come first: $RUNFILES_MANIFEST_FILE, then $RUNFILES_DIR, then $TEST_SRCDIR. */
  put("dir/ws/pkg/net.bundle/net.weights.bin", "w");
  setenv("TEST_SRCDIR", at("dir"), 1);
  CHECK(glow_runfile(w, prog, out, sizeof out) == GLOW_RT_OK && !strcmp(out, at("dir/ws/pkg/net.bundle/net.weights.bin")));
  unsetenv("TEST_SRCDIR");
  setenv("RUNFILES_DIR", at("dir"), 1);
  CHECK(glow_runfile(w, prog, out, sizeof out) == GLOW_RT_OK && !strcmp(out, at("dir/ws/pkg/net.bundle/net.weights.bin")));
  put("MANIFEST", "ws/pkg/net.bundle/net.weights.bin /from/manifest\r\n");
  setenv("RUNFILES_MANIFEST_FILE", at("MANIFEST"), 1);
  CHECK(glow_runfile(w, prog, out, sizeof out) == GLOW_RT_OK && !strcmp(out, "/from/manifest"));

  /* Not a runfile: the message names it and every place looked in. */
  CHECK(glow_runfile("ws/other.bin", prog, out, sizeof out) == GLOW_RT_ERR_NOT_FOUND);
  CHECK(strstr(glow_last_error(), "ws/other.bin") && strstr(glow_last_error(), "$RUNFILES_MANIFEST_FILE") &&
        strstr(glow_last_error(), "$RUNFILES_DIR") && strstr(glow_last_error(), "bare.runfiles_manifest"));
  unsetenv("RUNFILES_MANIFEST_FILE");
  unsetenv("RUNFILES_DIR");
  CHECK(glow_runfile(w, NULL, out, sizeof out) == GLOW_RT_ERR_NOT_FOUND && strstr(glow_last_error(), "nothing"));

  /* Bad arguments, and a buffer too small for the path. */
  CHECK(glow_runfile(w, prog, out, 5) == GLOW_RT_ERR_ARG && strstr(glow_last_error(), "longer than the 5 bytes"));
  CHECK(glow_runfile(NULL, prog, out, sizeof out) == GLOW_RT_ERR_ARG);
  CHECK(glow_runfile("", prog, out, sizeof out) == GLOW_RT_ERR_ARG);
  CHECK(glow_runfile(w, prog, NULL, 0) == GLOW_RT_ERR_ARG);

  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  if (system(cmd))
    failures++;
  if (failures)
    return 1;
  printf("glow_runfile: folders, manifests, their order, and errors: ok\n");
  return 0;
}
