/* run-bundle on the CPU: the bundle's entry on the areas (run-model.h). */
#include "run-model.h"

int glow_test_run_model(const glow_bundle *b, uint8_t *constant, uint8_t *mutable_, uint8_t *activations) {
  return b->entry(constant, mutable_, activations);
}
