/* The option table (options.def) and look-ups in it. */
#include <string.h>

#include "driver/option-table.h"

#define OPTION(...) {__VA_ARGS__},
const glow_option glow_options[] = {
#include "driver/options.def"
};
#undef OPTION
const int glow_noptions = (int)(sizeof glow_options / sizeof glow_options[0]);

static unsigned tool_bit(glow_driver_tool tool) {
  return tool == GLOW_TOOL_COMPILER ? GLOW_FOR_COMPILER
         : tool == GLOW_TOOL_PROFILER ? GLOW_FOR_PROFILER
                                      : GLOW_FOR_CLASSIFIER;
}

const glow_option *glow_option_find(glow_driver_tool tool, const char *name) {
  for (int hops = 0; hops < 2; hops++) {
    const glow_option *o = NULL;
    for (int i = 0; i < glow_noptions && !o; i++)
      if ((glow_options[i].tools & tool_bit(tool)) && !strcmp(glow_options[i].name, name))
        o = &glow_options[i];
    if (!o || o->kind != GLOW_OPT_ALIAS)
      return o;
    name = o->values;
  }
  return NULL;
}

/* Levenshtein distance, capped: names are short. */
static int distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 63 || lb > 63)
    return 99;
  int row[64];
  for (size_t j = 0; j <= lb; j++)
    row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  return row[lb];
}

const char *glow_option_closest(glow_driver_tool tool, const char *name) {
  const char *best = NULL;
  int bd = 1 << 30;
  for (int i = 0; i < glow_noptions; i++) {
    const glow_option *o = &glow_options[i];
    if (!(o->tools & tool_bit(tool)) || o->kind == GLOW_OPT_REFUSED)
      continue;
    int dd = distance(name, o->name);
    /* A prefix of a long name ("-emit" for -emit-bundle) is as good as a near miss. */
    if (strlen(name) >= 3 && !strncmp(o->name, name, strlen(name)))
      dd = dd < 2 ? dd : 2;
    if (dd < bd) {
      bd = dd;
      best = o->name;
    }
  }
  size_t n = strlen(name);
  return bd <= (int)(n / 3 + 1) ? best : NULL;
}
