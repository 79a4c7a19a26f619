/* Storage type, compute type, load and store for each float dtype suffix, so a
 * kernel body is written once: float16 and bfloat16 are stored as their bits
 * and computed in float. */
#ifndef GLOW_FLOAT_TYPES_H
#define GLOW_FLOAT_TYPES_H

#include "kmath.h"

#define T_f32 float
#define C_f32 float
#define LD_f32(v) (v)
#define ST_f32(v) (v)
#define T_f64 double
#define C_f64 double
#define LD_f64(v) (v)
#define ST_f64(v) (v)
#define T_f16 uint16_t
#define C_f16 float
#define LD_f16(v) glow_f16_to_f32(v)
#define ST_f16(v) glow_f32_to_f16(v)
#define T_bf16 uint16_t
#define C_bf16 float
#define LD_bf16(v) glow_bf16_to_f32(v)
#define ST_bf16(v) glow_f32_to_bf16(v)

#endif
