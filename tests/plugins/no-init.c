/* A plugin with the version symbol but no glowc_pass_plugin_init. */
#include <stdint.h>

#include <glowc-pass.h>

__attribute__((visibility("default"))) const uint32_t glowc_pass_abi_version = GLOWC_PASS_ABI_VERSION;
