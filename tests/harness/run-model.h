/* The test driver's pieces: run-bundle.c runs one test case through a bundle,
 * run-model.c / run-model-cuda.c run the bundle itself (on the CPU, or on a GPU
 * through the runtime's CUDA instance), and run-bundle-main.c / run-bundle-dl.c
 * are the programs (the bundle linked in, or CUDA bundles loaded as shared
 * objects). */
#ifndef GLOW_TEST_RUN_MODEL_H
#define GLOW_TEST_RUN_MODEL_H

#include <stdint.h>

#include "compare.h"
#include "glow-runtime.h"

/* Runs bundle b on the three areas (host memory): its status, or -1 after printing why the
 * model could not be run at all (no GPU, ...). */
int glow_test_run_model(const glow_bundle *b, uint8_t *constant, uint8_t *mutable_, uint8_t *activations);

/* One test case: b's weights file, inputs from case_dir, run, outputs compared with tol.
 * Returns 0 if every output matches, 1 if not, 2 on an IO error or a model that cannot run. */
int glow_test_case(const glow_bundle *b, const char *weights, const char *case_dir, const glow_tolerance *tol);

#endif
