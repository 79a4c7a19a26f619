/* How run-bundle runs the bundle "model": run-model.c calls its entry on the
 * three areas; run-model-cuda.c runs a CUDA bundle through the runtime's CUDA
 * instance, copying the areas' inputs and outputs. Returns the entry's status,
 * or -1 after printing why the model could not be run at all. */
#ifndef GLOW_TEST_RUN_MODEL_H
#define GLOW_TEST_RUN_MODEL_H

#include <stdint.h>

int glow_test_run_model(uint8_t *constant, uint8_t *mutable_, uint8_t *activations);

#endif
