# Cortex-M55 (Armv8.1-M Mainline) with MVE (Helium, integer and float) and the
# double-precision FPU, hard-float ABI (bundles: thumbv8.1m.main-none-eabihf,
# -mcpu=cortex-m55), with Debian's arm-none-eabi gcc. gcc 12's cortex-m55 has
# +mve.fp and FPv5-D16 by default (-mfpu=auto); its multilib for them is
# thumb/v8-m.main+dp/hard (the C library uses no MVE; the calling convention is
# the same).
set(CMAKE_SYSTEM_PROCESSOR cortex-m55)
set(GLOWC_ARM_FLAGS "-mcpu=cortex-m55 -mthumb -mfloat-abi=hard")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
