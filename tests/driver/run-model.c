/* run-bundle on the CPU: the bundle's entry on the areas (run-model.h). */
#include "run-model.h"

int model(uint8_t *constantWeight, uint8_t *mutableWeight, uint8_t *activations);

int glow_test_run_model(uint8_t *constant, uint8_t *mutable_, uint8_t *activations) {
  return model(constant, mutable_, activations);
}
