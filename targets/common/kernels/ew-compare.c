/* Comparison and logic kernels with numpy broadcasting; bool (0/1 byte) output.
 * t: out, a, b; p: glow_abi_ew of a and b. */
#include "kernels/elementwise.h"

#define K_CMP(s, name, op) GLOW_EW_BINARY(name##_##s, s, s, b8, a op b)
GLOW_EW_NUMERIC(K_CMP, equal, ==)
K_CMP(b8, equal, ==)
GLOW_EW_NUMERIC(K_CMP, less, <)
GLOW_EW_NUMERIC(K_CMP, less_equal, <=)
GLOW_EW_NUMERIC(K_CMP, greater, >)
GLOW_EW_NUMERIC(K_CMP, greater_equal, >=)
K_CMP(b8, and, &)
K_CMP(b8, or, |)
K_CMP(b8, xor, ^)
