/* -name=value, -name value and --name forms of the tools' options (driver.h). */
#include <string.h>

#include "driver.h"

const char *glow_option_match(int argc, char **argv, int *i, const char *name, int takes_value) {
  const char *a = argv[*i];
  if (*a != '-')
    return NULL;
  a += a[1] == '-' ? 2 : 1;
  size_t n = strlen(name);
  if (strncmp(a, name, n))
    return NULL;
  if (!takes_value)
    return a[n] ? NULL : "";
  if (a[n] == '=')
    return a + n + 1;
  if (a[n] || *i + 1 >= argc)
    return NULL;
  return argv[++*i];
}
