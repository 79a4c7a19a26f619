/* The compile cache key covers every option that changes a bundle: for each
 * model-compiler option options.def marks as output-affecting, a compile with
 * its example value must get a key other than the base compile's. (A key
 * that missed one would hand out a stale bundle.) Also: every table entry is
 * well formed, and each tool's -help lists exactly its options.
 *   test-option-key <model.onnx> <other.onnx> <profile.yml> <other-profile.yml> <any file> <work dir> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/option-table.h"

static const char *const *paths;

/* model-compiler <base...> [extra]: its key, or "" if parsing failed. */
static void key_of(const char *extra, char key[65]) {
  char model[600], profile[600], out[600];
  snprintf(model, sizeof model, "-model=%s", paths[0]);
  snprintf(profile, sizeof profile, "-load-profile=%s", paths[2]);
  snprintf(out, sizeof out, "-emit-bundle=%s", paths[5]);
  char *argv[8] = {"model-compiler", model, profile, out, "-weights=bin,zst", "-bundle-api=static", NULL, NULL};
  int argc = 6;
  if (extra)
    argv[argc++] = (char *)extra;
  glow_driver_options d;
  key[0] = 0;
  if (glow_driver_parse(GLOW_TOOL_COMPILER, argc, argv, &d) == 0 && glow_cache_key(&d, key))
    key[0] = 0;
  glow_driver_options_free(&d);
}

/* The example with its placeholders (@other-model, ...) made concrete. */
static void example_arg(const glow_option *o, char *buf, size_t cap) {
  const char *e = o->example, *at = strstr(e, "@other-model");
  static char entry[700];
  if (at && at != e) { /* "<name>,@other-model" */
    snprintf(entry, sizeof entry, "%.*s%s", (int)(at - e), e, paths[1]);
    e = entry;
  } else if (at)
    e = paths[1];
  else if (!strcmp(e, "@profile"))
    e = paths[3];
  else if (!strcmp(e, "@object"))
    e = paths[4];
  else if (!strcmp(e, "@tool"))
    e = "/bin/true";
  char bind[600];
  if (!strcmp(e, "@bind")) {
    snprintf(bind, sizeof bind, "x,%s", paths[4]);
    e = bind;
  }
  if (o->kind == GLOW_OPT_FLAG && !*e) /* a flag's example is "" (-name) or its value (-name=false) */
    snprintf(buf, cap, "-%s", o->name);
  else
    snprintf(buf, cap, "-%s=%s", o->name, e);
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: test-option-key <model.onnx> <other.onnx> <profile.yml> <other.yml> <file> <dir>\n");
    return 2;
  }
  paths = (const char *const *)argv + 1;
  int failures = 0, checked = 0;
  char base[65];
  key_of(NULL, base);
  if (!*base) {
    fprintf(stderr, "FAIL: the base command line did not parse or key\n");
    return 1;
  }
  for (int i = 0; i < glow_noptions; i++) {
    const glow_option *o = &glow_options[i];
    /* Well formed: a name, a help or reason, and an example for each output-affecting compiler option. */
    if (!o->name || !*o->name || (o->kind == GLOW_OPT_REFUSED ? !o->values : !o->help)) {
      fprintf(stderr, "FAIL: option %d ('%s') lacks its name, help or reason\n", i, o->name ? o->name : "");
      failures++;
    }
    if (o->kind == GLOW_OPT_ALIAS && !glow_option_find(GLOW_TOOL_COMPILER, o->values) &&
        !glow_option_find(GLOW_TOOL_CLASSIFIER, o->values)) {
      fprintf(stderr, "FAIL: alias -%s names no option (-%s)\n", o->name, o->values);
      failures++;
    }
    for (int k = 0; k < i; k++)
      if (!strcmp(glow_options[k].name, o->name) && (glow_options[k].tools & o->tools)) {
        fprintf(stderr, "FAIL: -%s is declared twice for one tool\n", o->name);
        failures++;
      }
    if (!(o->tools & GLOW_FOR_COMPILER) || o->key == GLOW_KEY_NONE)
      continue;
    /* load-pass and pass need a plugin library: tests/plugins covers their keys. */
    if (!strcmp(o->name, "load-pass") || !strcmp(o->name, "pass"))
      continue;
    if (!o->example) {
      fprintf(stderr, "FAIL: -%s changes bundles but has no example to test its key with\n", o->name);
      failures++;
      continue;
    }
    char arg[1600], key[65];
    example_arg(o, arg, sizeof arg);
    key_of(arg, key);
    checked++;
    if (!*key) {
      fprintf(stderr, "FAIL: '%s' did not parse with the base options\n", arg);
      failures++;
    } else if (!strcmp(key, base)) {
      fprintf(stderr, "FAIL: '%s' changes the bundle, but the cache key stayed %s\n", arg, key);
      failures++;
    } else {
      printf("ok: %s changes the key\n", arg);
    }
  }
  printf("%d output-affecting options checked, %d failures\n", checked, failures);
  return failures ? 1 : 0;
}
