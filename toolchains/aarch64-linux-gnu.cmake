# AArch64 Linux with Debian's cross gcc (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross;
# g++-aarch64-linux-gnu for C++) and qemu-user to run the programs:
#   cmake -S <project> -B <build> \
#         -DCMAKE_TOOLCHAIN_FILE=<glowc>/toolchains/aarch64-linux-gnu.cmake \
#         -DCMAKE_PREFIX_PATH=<glowc prefix>
# add_glow_bundle() then passes -target=aarch64-linux-gnu, and ctest runs the project's tests under
# qemu-aarch64 (CMAKE_CROSSCOMPILING_EMULATOR).
set(GLOWC_CROSS_ARCH aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake)
