/* External programs run as Glow runs its tools, and the private temporary folders they work in: no shell, every argument as given,
 * stdin from /dev/null, its output kept in a file for the error message. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "glowc.h"

extern char **environ;

/* Runs argv, argv[0] found through PATH when it has no '/' (no shell: every argument as
 * given), its output into `log`. What it printed goes to stderr when it succeeds (warnings).
 * @return 0, or -1 after an error naming `option`, the command, its exit status and output. */
int glow_run_tool(const char *option, char *const *argv, const char *log) {
  glow_strbuf cmd = {0}; /* for messages: a long argument (a host's -mattr) shortened */
  for (int i = 0; argv[i]; i++)
    glow_sb_printf(&cmd, strlen(argv[i]) > 100 ? "%s%.60s...(%zu characters)" : "%s%s", i ? " " : "", argv[i],
                   strlen(argv[i]));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err) {
    glow_error(option, "cannot run '%s': %s (the command was: %s)", argv[0], strerror(err), cmd.s);
    glow_sb_free(&cmd);
    return -1;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  uint8_t *out = NULL; /* NUL-terminated by glow_read_file */
  size_t n = 0;
  glow_read_file(log, &out, &n);
  int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (ok && n)
    fprintf(stderr, "%s", (char *)out);
  if (!ok)
    glow_error(option, "'%s' failed (%s %d); the command was: %s%s%s", argv[0],
               WIFEXITED(status) ? "exit status" : "killed by signal",
               WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? WTERMSIG(status) : -1, cmd.s,
               n ? "\n" : " (it printed nothing)", n ? (char *)out : "");
  free(out);
  glow_sb_free(&cmd);
  return ok ? 0 : -1;
}


char *glow_temp_path(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = glow_xmalloc(n);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

char *glow_temp_dir(const char *option, const char *what) {
  const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char *dir = glow_temp_path(tmp, "glowc-XXXXXX");
  if (mkdtemp(dir))
    return dir;
  glow_error(option, "cannot make a temporary folder under %s for %s: %s (set TMPDIR)", tmp, what, strerror(errno));
  free(dir);
  return NULL;
}

void glow_temp_dir_remove(char *dir) {
  DIR *d = dir ? opendir(dir) : NULL;
  for (struct dirent *e; d && (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    char *p = glow_temp_path(dir, e->d_name);
    unlink(p);
    free(p);
  }
  if (d)
    closedir(d);
  if (dir)
    rmdir(dir);
  free(dir);
}
