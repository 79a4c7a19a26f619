/* The Cortex-M int8 steps and kernels (common/qdot-mcu.h), in place of common/qdot.h. */
#include "qdot-mcu.h"
