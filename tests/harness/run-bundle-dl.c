/* run-bundle-dl: CUDA bundles compiled to shared objects, run on a GPU one
 * after another in one process, for a GPU machine that has none of glowc's
 * build dependencies (tests/cuda/device-pack.sh makes the folders and this
 * program there; it needs only the C library and the NVIDIA driver).
 *
 *   run-bundle-dl [-rtol R] [-atol A] [-max-rel E] <dir>...
 *
 * Each <dir> holds model.so (a bundle "model", -bundle-api=dynamic, linked with
 * cc -shared), model.weights.bin and test_data_set_0/. The bundles' CUDA driver
 * calls resolve to this program's (glowc_runtime_cuda, exported). Prints one
 * line per folder that does not pass and the counts; exit 0 if all passed. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "run-model.h"

static int one(const char *dir, const glow_tolerance *tol) {
  char path[4096], data[4096], weights[4096];
  snprintf(path, sizeof path, "%s/model.so", dir);
  snprintf(weights, sizeof weights, "%s/model.weights.bin", dir);
  snprintf(data, sizeof data, "%s/test_data_set_0", dir);
  void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!so) {
    printf("%s: error: %s\n", dir, dlerror());
    return 2;
  }
  glow_bundle b = {"model", dlsym(so, "model_config"), dlsym(so, "model_tensor_info"), NULL};
  *(void **)&b.entry = dlsym(so, "model");
  int rc = 2;
  if (!b.config || !b.tensors || !b.entry)
    printf("%s: error: %s defines no model, model_config or model_tensor_info\n", dir, path);
  else
    rc = glow_test_case(&b, weights, data, tol);
  dlclose(so);
  return rc;
}

int main(int argc, char **argv) {
  glow_tolerance tol = {1e-3, 1e-5, -1, 0};
  int first = 1;
  while (first + 1 < argc && argv[first][0] == '-')
    first += 2;
  if (first >= argc || glow_test_tolerance(first - 1, argv + 1, &tol)) {
    fprintf(stderr, "usage: run-bundle-dl [-rtol R] [-atol A] [-max-rel E] <dir>...\n");
    return 2;
  }
  int n = 0, passed = 0;
  for (int i = first; i < argc; i++, n++) {
    fflush(stdout);
    int rc = one(argv[i], &tol);
    passed += rc == 0;
    if (rc)
      printf("%s: %s\n", argv[i], rc == 1 ? "wrong result" : "error");
  }
  printf("run-bundle-dl: %d of %d passed\n", passed, n);
  return passed == n ? 0 : 1;
}
