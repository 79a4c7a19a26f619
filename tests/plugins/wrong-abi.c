/* A plugin built for another pass ABI version: glowc must refuse it before running any of it. */
#include <stdint.h>
#include <stdlib.h>

#include <glowc-pass.h>

__attribute__((visibility("default"))) const uint32_t glowc_pass_abi_version = 999;
__attribute__((visibility("default"))) int glowc_pass_plugin_init(const glowc_pass_api *api, glowc_pass_registry *r);

int glowc_pass_plugin_init(const glowc_pass_api *api, glowc_pass_registry *r) {
  (void)api;
  (void)r;
  abort(); /* never called */
}
