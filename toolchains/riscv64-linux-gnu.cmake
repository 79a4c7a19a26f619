# Cross-compiling for RISC-V 64 Linux with Debian's cross gcc
# (apt-get install gcc-riscv64-linux-gnu libc6-dev-riscv64-cross, g++-riscv64-linux-gnu for C++, qemu-user to run):
#   cmake -S . -B build-riscv64 -DCMAKE_TOOLCHAIN_FILE=<glowc>/toolchains/riscv64-linux-gnu.cmake
# add_glow_bundle() then compiles bundles with -target=riscv64-linux-gnu, and, with qemu-riscv64
# installed, ctest runs the target's programs under it (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER riscv64-linux-gnu-g++)

# Libraries, headers and packages only from the target's root; programs (run at build time) from the
# host. Add glowc's install prefix for find_package(glowc): -DCMAKE_FIND_ROOT_PATH=<prefix>.
list(APPEND CMAKE_FIND_ROOT_PATH /usr/riscv64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(GLOWC_QEMU_RISCV64 qemu-riscv64)
if(GLOWC_QEMU_RISCV64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${GLOWC_QEMU_RISCV64} -L /usr/riscv64-linux-gnu)
endif()
