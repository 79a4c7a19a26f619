/* The quantization options of model-compiler (Glow's spellings):
 * -load-profile, -quantization-schema, -quantization-precision,
 * -quantization-precision-bias, -enable-channelwise,
 * -keep-original-precision-for-nodes, -quantization-calibration. */
#include <string.h>

#include "driver/driver.h"

static int pick(const char *opt, const char *v, const char *const *names, int n, int *out) {
  for (int k = 0; k < n; k++)
    if (!strcmp(v, names[k])) {
      *out = k;
      return 0;
    }
  glow_error(opt, "'%s' is not one of:", v);
  for (int k = 0; k < n; k++)
    fprintf(stderr, " %s", names[k]);
  fprintf(stderr, "\n");
  return 1;
}

int glow_parse_quant_option(int argc, char **argv, int *i, glow_driver_options *d, int *bad) {
  static const char *const schemas[] = {"asymmetric", "symmetric", "symmetric_with_uint8",
                                        "symmetric_with_power2_scale"};
  static const char *const precisions[] = {"Int8", "Int16"}, *const bias[] = {"Int32", "Int8"};
  static const char *const calibrations[] = {"none", "KL"};
  glow_quant_options *q = &d->quant;
  const char *v;
  int k = 0;
  if ((v = glow_option_match(argc, argv, i, "load-profile", 1)))
    d->load_profile = q->profile_path = v;
  else if ((v = glow_option_match(argc, argv, i, "quantization-schema", 1))) {
    *bad |= pick("-quantization-schema", v, schemas, 4, &k);
    q->schema = (glow_quant_schema)k;
    d->quant_set = 1;
  } else if ((v = glow_option_match(argc, argv, i, "quantization-precision", 1))) {
    *bad |= pick("-quantization-precision", v, precisions, 2, &k);
    q->int16 = k;
    d->quant_set = 1;
  } else if ((v = glow_option_match(argc, argv, i, "quantization-precision-bias", 1))) {
    *bad |= pick("-quantization-precision-bias", v, bias, 2, &k);
    q->bias_int8 = k;
    d->quant_set = 1;
  } else if (glow_option_match(argc, argv, i, "enable-channelwise", 0))
    d->quant_set = q->channelwise = 1;
  else if ((v = glow_option_match(argc, argv, i, "keep-original-precision-for-nodes", 1))) {
    q->keep_kinds = v;
    d->quant_set = 1;
    for (const char *s = v; *s;) {
      size_t n = strcspn(s, ",");
      char name[64];
      snprintf(name, sizeof name, "%.*s", (int)n, s);
      if (glow_op_from_onnx(name) == GLOW_OP_COUNT) {
        glow_error("-keep-original-precision-for-nodes", "'%s' is not an ONNX op glowc knows (e.g. Conv,MatMul)",
                   name);
        *bad = 1;
      }
      s += n + (s[n] == ',');
    }
  } else if ((v = glow_option_match(argc, argv, i, "quantization-calibration", 1))) {
    *bad |= pick("-quantization-calibration", v, calibrations, 2, &k);
    q->calibration_kl = k;
    d->quant_set = 1;
  } else
    return 0;
  return 1;
}
