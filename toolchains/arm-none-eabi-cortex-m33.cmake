# Cortex-M33 (Armv8-M Mainline) with its single-precision FPU (FPv5-SP-D16) and
# the DSP extension, hard-float ABI (bundles: thumbv8m.main-none-eabihf,
# -mcpu=cortex-m33), with Debian's arm-none-eabi gcc (the thumb/v8-m.main+fp/hard
# multilib).
set(CMAKE_SYSTEM_PROCESSOR cortex-m33)
set(GLOWC_ARM_FLAGS "-mcpu=cortex-m33 -mthumb -mfloat-abi=hard -mfpu=fpv5-sp-d16")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
