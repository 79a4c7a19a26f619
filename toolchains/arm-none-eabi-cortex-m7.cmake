# Cortex-M7 with the double-precision FPU (FPv5-D16, as LLVM's cortex-m7
# assumes), hard-float ABI (bundles: thumbv7em-none-eabihf, -mcpu=cortex-m7),
# with Debian's arm-none-eabi gcc. For an M7 with the single-precision FPU only,
# use -mfpu=fpv5-sp-d16 here and FEATURES -fp64 in add_glow_bundle().
set(CMAKE_SYSTEM_PROCESSOR cortex-m7)
set(GLOWC_ARM_FLAGS "-mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
