# Cortex-M0/M0+ (Armv6-M): no FPU, so floats in software and the soft-float ABI
# (bundles: thumbv6m-none-eabi, -mcpu=cortex-m0), with Debian's arm-none-eabi gcc
# (newlib's and libgcc's thumb/v6-m/nofp multilib). For a Cortex-M0+ use
# -mcpu=cortex-m0plus here and CPU cortex-m0plus in add_glow_bundle().
set(CMAKE_SYSTEM_PROCESSOR cortex-m0)
set(GLOWC_ARM_FLAGS "-mcpu=cortex-m0 -mthumb -mfloat-abi=soft")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
