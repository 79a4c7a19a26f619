# Shared part of the Cortex-M toolchain files (arm-none-eabi-cortex-m0.cmake,
# -m4, -m7, -m33, -m55), which set CMAKE_SYSTEM_PROCESSOR and GLOWC_ARM_FLAGS
# and then include this file. Debian's gcc-arm-none-eabi with
# libnewlib-arm-none-eabi; bare metal, so programs bring their own startup code
# and linker script (examples/cortex-m/ has both for QEMU's boards).
set(CMAKE_SYSTEM_NAME Generic)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# Checking the compiler links a program, which needs a startup file and a
# linker script that only the project has: check it with a library instead.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# The CPU flags go to the linker too: gcc picks newlib's and libgcc's multilib
# (thumb/v7e-m+fp/hard for a Cortex-M4F) from them.
foreach(lang C CXX ASM)
  set(CMAKE_${lang}_FLAGS_INIT "${GLOWC_ARM_FLAGS}")
endforeach()
set(CMAKE_EXE_LINKER_FLAGS_INIT "${GLOWC_ARM_FLAGS}")

# Headers and libraries come from the cross toolchain only; programs (such as
# model-compiler) and packages (glowc's own, a host tool) from the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
