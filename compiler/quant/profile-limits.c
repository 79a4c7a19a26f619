/* The limits a profile must keep before libyaml builds its document tree
 * (about 190 bytes of memory per value): no aliases, which let a small file
 * stand for gigabytes of values (1000 aliases of one entry of 10^5 counts are
 * 10^8 values from 300 KB), and at most GLOW_PROFILE_MAX_VALUES values. A
 * streaming pass over libyaml's events, one event in memory at a time. */
#include <yaml.h>

#include "quant/quant.h"

int glow_profile_check_limits(const void *data, size_t size, const char *path) {
  yaml_parser_t parser;
  GLOW_ASSERT(yaml_parser_initialize(&parser));
  yaml_parser_set_input_string(&parser, data, size);
  size_t values = 0;
  int rc = 0;
  for (int done = 0; !done && !rc;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev))
      break; /* not YAML: the loader says where and why */
    char where[4096];
    snprintf(where, sizeof where, "%s:%lu:%lu", path, (unsigned long)ev.start_mark.line + 1,
             (unsigned long)ev.start_mark.column + 1);
    if (ev.type == YAML_ALIAS_EVENT) {
      glow_error(where, "alias '*%s': a profile may not use YAML aliases (glowc and Glow write none; an alias can "
                 "make a small file stand for gigabytes of histograms)", (const char *)ev.data.alias.anchor);
      rc = -1;
    } else if (ev.type == YAML_SCALAR_EVENT && ++values > GLOW_PROFILE_MAX_VALUES) {
      glow_error(where, "more than %d values in the profile; glowc refuses larger profiles before loading them, "
                 "to keep its memory bounded (a %d-bin histogram for each of %d tensors fits)",
                 GLOW_PROFILE_MAX_VALUES, GLOW_PROFILE_BINS, GLOW_PROFILE_MAX_VALUES / (GLOW_PROFILE_BINS + 4));
      rc = -1;
    }
    done = ev.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&parser);
  return rc;
}
