/* Output comparison shared by the test drivers. */
#ifndef GLOW_TEST_COMPARE_H
#define GLOW_TEST_COMPARE_H

#include "glowc.h"

typedef struct glow_tolerance {
  double rtol, atol; /* elementwise: |got - want| <= atol + rtol * |want| (floats) */
  double max_rel;    /* if >= 0 instead: max|got - want| / max|want| <= max_rel */
  int64_t int_tol;   /* integers: |got - want| <= int_tol (int8 outputs against another runtime's) */
} glow_tolerance;

/* Parses "-rtol R", "-atol A", "-max-rel E", "-int-tol N" pairs; -1 on anything else. */
int glow_test_tolerance(int argc, char **argv, glow_tolerance *t);

/* Whether test data of type `data` holds values of type `model`: the same type,
 * or bfloat16 stored as uint16 bits (how the ONNX 1.12 test data keeps bfloat16). */
int glow_test_dtype_ok(glow_dtype model, glow_dtype data);

/* Compares n elements of type dt at got with want; prints one report line
 * (and the first mismatch). Integers within t->int_tol, bools exact. Returns 0 on match. */
int glow_test_compare(const char *name, glow_dtype dt, int64_t n, const void *got, const glow_tensor *want,
                      const glow_tolerance *t);

#endif
