# AArch64 Linux with Debian's cross gcc (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross;
# g++-aarch64-linux-gnu for C++) and qemu-user to run the programs:
#   cmake -S <project> -B <build> \
#         -DCMAKE_TOOLCHAIN_FILE=<glowc>/toolchains/aarch64-linux-gnu.cmake \
#         -DCMAKE_PREFIX_PATH=<glowc prefix>
# add_glow_bundle() then passes -target=aarch64-linux-gnu, and ctest runs the project's tests under
# qemu-aarch64 (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Headers and libraries come from the target's root only; programs (such as
# model-compiler) from the host; packages from both (glowc's own is a host tool's).
list(APPEND CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

find_program(GLOWC_QEMU_AARCH64 qemu-aarch64)
if(GLOWC_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${GLOWC_QEMU_AARCH64} -L /usr/aarch64-linux-gnu)
endif()
