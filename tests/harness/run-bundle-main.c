/* run-bundle: the test driver linked with a dynamic-API bundle named "model".
 *
 *   run-bundle <model.weights.bin> <case_dir> [-rtol R] [-atol A] [-max-rel E] [-int-tol N]
 *
 * Exit 0 if every output matches, 1 if not, 2 on a usage/IO error. */
#include <stdio.h>

#include "run-model.h"

extern const struct BundleConfig model_config;
extern const struct GlowTensorInfo model_tensor_info[];
int model(uint8_t *constantWeight, uint8_t *mutableWeight, uint8_t *activations);

int main(int argc, char **argv) {
  static const glow_bundle b = GLOW_BUNDLE(model);
  glow_tolerance tol = {1e-3, 1e-5, -1, 0};
  if (argc < 3) {
    fprintf(stderr, "usage: run-bundle <model.weights.bin> <case_dir> [-rtol R] [-atol A] [-max-rel E] [-int-tol N]\n");
    return 2;
  }
  if (glow_test_tolerance(argc - 3, argv + 3, &tol))
    return 2;
  return glow_test_case(&b, argv[1], argv[2], &tol);
}
