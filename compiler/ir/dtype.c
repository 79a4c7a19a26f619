/* Element types: sizes and names. */
#include <string.h>

#include "glowc.h"

static const struct {
  const char *name, *suffix;
  unsigned size;
} info[GLOW_DT_COUNT] = {
    [GLOW_DT_F32] = {"float", "f32", 4},   [GLOW_DT_U8] = {"uint8", "u8", 1},
    [GLOW_DT_I8] = {"int8", "i8", 1},      [GLOW_DT_U16] = {"uint16", "u16", 2},
    [GLOW_DT_I16] = {"int16", "i16", 2},   [GLOW_DT_I32] = {"int32", "i32", 4},
    [GLOW_DT_I64] = {"int64", "i64", 8},   [GLOW_DT_STRING] = {"string", "str", 0},
    [GLOW_DT_BOOL] = {"bool", "b8", 1},    [GLOW_DT_F16] = {"float16", "f16", 2},
    [GLOW_DT_F64] = {"double", "f64", 8},  [GLOW_DT_U32] = {"uint32", "u32", 4},
    [GLOW_DT_U64] = {"uint64", "u64", 8},  [GLOW_DT_BF16] = {"bfloat16", "bf16", 2},
};

static int known(glow_dtype dt) { return dt > 0 && dt < GLOW_DT_COUNT && info[dt].name; }

size_t glow_dtype_size(glow_dtype dt) { return known(dt) ? info[dt].size : 0; }
const char *glow_dtype_name(glow_dtype dt) { return known(dt) ? info[dt].name : "undefined"; }
const char *glow_dtype_suffix(glow_dtype dt) { return known(dt) ? info[dt].suffix : "undef"; }

int glow_dtype_is_float(glow_dtype dt) {
  return dt == GLOW_DT_F32 || dt == GLOW_DT_F64 || dt == GLOW_DT_F16 || dt == GLOW_DT_BF16;
}
int glow_dtype_is_signed_int(glow_dtype dt) {
  return dt == GLOW_DT_I8 || dt == GLOW_DT_I16 || dt == GLOW_DT_I32 || dt == GLOW_DT_I64;
}
int glow_dtype_is_unsigned_int(glow_dtype dt) {
  return dt == GLOW_DT_U8 || dt == GLOW_DT_U16 || dt == GLOW_DT_U32 || dt == GLOW_DT_U64;
}

glow_dtype glow_dtype_from_name(const char *name) {
  for (int i = 1; i < GLOW_DT_COUNT; i++)
    if (known(i) && (!strcmp(name, info[i].name) || !strcmp(name, info[i].suffix)))
      return (glow_dtype)i;
  if (!strcmp(name, "float32"))
    return GLOW_DT_F32;
  if (!strcmp(name, "float64"))
    return GLOW_DT_F64;
  return GLOW_DT_UNDEF;
}
