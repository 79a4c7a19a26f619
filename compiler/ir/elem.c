/* Generic element access so reference code can be written once for all dtypes. */
#include <math.h>
#include <string.h>

#include "glowc.h"

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023u, bits;
  if (exp == 0) {
    float f = ldexpf((float)man, -24);
    return sign ? -f : f;
  }
  if (exp == 31)
    bits = sign | 0x7f800000u | (man << 13);
  else
    bits = sign | ((exp + 112) << 23) | (man << 13);
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

static uint16_t float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  uint32_t man = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff)
    return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
  if (exp >= 31)
    return (uint16_t)(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10)
      return (uint16_t)sign;
    man |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - exp);
    uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1)))
      h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = sign | ((uint32_t)exp << 10) | (man >> 13), rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
    h++;
  return (uint16_t)h;
}

static float bf16_to_float(uint16_t b) {
  uint32_t x = (uint32_t)b << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static uint16_t float_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fffu + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

double glow_elem_get(glow_dtype dt, const void *p, int64_t i) {
  switch (dt) {
  case GLOW_DT_F32: return ((const float *)p)[i];
  case GLOW_DT_F64: return ((const double *)p)[i];
  case GLOW_DT_F16: return half_to_float(((const uint16_t *)p)[i]);
  case GLOW_DT_BF16: return bf16_to_float(((const uint16_t *)p)[i]);
  case GLOW_DT_U64: return (double)((const uint64_t *)p)[i];
  default: return (double)glow_elem_geti(dt, p, i);
  }
}

void glow_elem_set(glow_dtype dt, void *p, int64_t i, double v) {
  switch (dt) {
  case GLOW_DT_F32: ((float *)p)[i] = (float)v; return;
  case GLOW_DT_F64: ((double *)p)[i] = v; return;
  case GLOW_DT_F16: ((uint16_t *)p)[i] = float_to_half((float)v); return;
  case GLOW_DT_BF16: ((uint16_t *)p)[i] = float_to_bf16((float)v); return;
  case GLOW_DT_BOOL: ((uint8_t *)p)[i] = v != 0; return;
  case GLOW_DT_U64: ((uint64_t *)p)[i] = (uint64_t)v; return;
  default: glow_elem_seti(dt, p, i, (int64_t)v); return;
  }
}

int64_t glow_elem_geti(glow_dtype dt, const void *p, int64_t i) {
  switch (dt) {
  case GLOW_DT_U8: return ((const uint8_t *)p)[i];
  case GLOW_DT_I8: return ((const int8_t *)p)[i];
  case GLOW_DT_U16: return ((const uint16_t *)p)[i];
  case GLOW_DT_I16: return ((const int16_t *)p)[i];
  case GLOW_DT_I32: return ((const int32_t *)p)[i];
  case GLOW_DT_I64: return ((const int64_t *)p)[i];
  case GLOW_DT_BOOL: return ((const uint8_t *)p)[i] != 0;
  case GLOW_DT_U32: return ((const uint32_t *)p)[i];
  case GLOW_DT_U64: return (int64_t)((const uint64_t *)p)[i];
  default: return (int64_t)glow_elem_get(dt, p, i);
  }
}

void glow_elem_seti(glow_dtype dt, void *p, int64_t i, int64_t v) {
  switch (dt) {
  case GLOW_DT_U8: ((uint8_t *)p)[i] = (uint8_t)v; return;
  case GLOW_DT_I8: ((int8_t *)p)[i] = (int8_t)v; return;
  case GLOW_DT_U16: ((uint16_t *)p)[i] = (uint16_t)v; return;
  case GLOW_DT_I16: ((int16_t *)p)[i] = (int16_t)v; return;
  case GLOW_DT_I32: ((int32_t *)p)[i] = (int32_t)v; return;
  case GLOW_DT_I64: ((int64_t *)p)[i] = v; return;
  case GLOW_DT_BOOL: ((uint8_t *)p)[i] = v != 0; return;
  case GLOW_DT_U32: ((uint32_t *)p)[i] = (uint32_t)v; return;
  case GLOW_DT_U64: ((uint64_t *)p)[i] = (uint64_t)v; return;
  default: glow_elem_set(dt, p, i, (double)v); return;
  }
}
