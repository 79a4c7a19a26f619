# Cortex-M4 with its single-precision FPU, hard-float ABI (bundles:
# thumbv7em-none-eabihf, -mcpu=cortex-m4), with Debian's arm-none-eabi gcc:
#   cmake -S <project> -B <build> -DCMAKE_TOOLCHAIN_FILE=<glowc>/toolchains/arm-none-eabi-cortex-m4.cmake
set(CMAKE_SYSTEM_PROCESSOR cortex-m4)
set(GLOWC_ARM_FLAGS "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
