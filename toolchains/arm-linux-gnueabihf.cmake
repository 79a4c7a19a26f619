# 32-bit Arm Linux (Armv7-A with NEON, hard-float ABI: Raspberry Pi 2 and later under Raspberry Pi
# OS 32-bit, Debian armhf, Cortex-A7/A9 boards) with Debian's cross gcc (gcc-arm-linux-gnueabihf,
# libc6-dev-armhf-cross; g++-arm-linux-gnueabihf for C++) and qemu-user to run the programs:
#   cmake -S <project> -B <build> \
#         -DCMAKE_TOOLCHAIN_FILE=<glowc>/toolchains/arm-linux-gnueabihf.cmake \
#         -DCMAKE_PREFIX_PATH=<glowc prefix>
# add_glow_bundle() then passes -target=armv7-linux-gnueabihf (generic Armv7-A with NEON; CPU
# cortex-a7 and the like add VFPv4's fused multiply-add), and ctest runs the project's tests under
# qemu-arm (CMAKE_CROSSCOMPILING_EMULATOR). The program's own code keeps gcc's defaults (Armv7-A,
# Thumb-2, VFPv3-D16, hard float), which link with the bundle's NEON code. armv7l is what
# `uname -m` says on those boards.
set(GLOWC_CROSS_ARCH arm)
set(GLOWC_CROSS_GNU arm-linux-gnueabihf)
set(GLOWC_CROSS_PROCESSOR armv7l)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake)
