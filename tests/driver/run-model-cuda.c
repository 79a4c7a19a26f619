/* run-bundle on a GPU: the CUDA bundle "model" through glow_instance_create_cuda
 * (device 0), its inputs copied from the host areas and its outputs back
 * (run-model.h). A missing driver or device is reported, with glow_last_error(). */
#include <stdio.h>
#include <string.h>

#include "glow-runtime.h"
#include "run-model.h"

extern const struct BundleConfig model_config;
extern const struct GlowTensorInfo model_tensor_info[];
int model(uint8_t *constantWeight, uint8_t *mutableWeight, uint8_t *activations);

int glow_test_run_model(uint8_t *constant, uint8_t *mutable_, uint8_t *activations) {
  (void)activations; /* on the device */
  static const glow_bundle b = GLOW_BUNDLE(model);
  glow_weights *w = NULL;
  glow_instance *inst = NULL;
  if (glow_weights_wrap(&b, constant, model_config.constantWeightVarsMemSize, &w) ||
      glow_instance_create_cuda(&b, w, 0, &inst)) {
    fprintf(stderr, "run-bundle: %s\n", glow_last_error());
    glow_weights_free(w);
    return -1;
  }
  int n = glow_instance_tensor_count(inst), rc = 0;
  glow_tensor_ref t;
  for (int i = 0; i < n; i++)
    if (!glow_instance_tensor(inst, i, &t))
      memcpy(t.data, mutable_ + model_config.symbolTable[i].offset, t.bytes);
  if (glow_instance_run(inst)) {
    printf("run-bundle: %s\n", glow_last_error());
    rc = 1;
  }
  for (int i = 0; !rc && i < n; i++)
    if (!glow_instance_tensor(inst, i, &t))
      memcpy(mutable_ + model_config.symbolTable[i].offset, t.data, t.bytes);
  glow_instance_free(inst);
  glow_weights_free(w);
  return rc;
}
