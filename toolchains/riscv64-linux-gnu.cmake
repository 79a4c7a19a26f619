# RISC-V 64 Linux with Debian's cross gcc (gcc-riscv64-linux-gnu, libc6-dev-riscv64-cross;
# g++-riscv64-linux-gnu for C++) and qemu-user to run the programs:
#   cmake -S <project> -B <build> \
#         -DCMAKE_TOOLCHAIN_FILE=<glowc>/toolchains/riscv64-linux-gnu.cmake \
#         -DCMAKE_PREFIX_PATH=<glowc prefix>
# add_glow_bundle() then passes -target=riscv64-linux-gnu, and ctest runs the project's tests under
# qemu-riscv64 (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER riscv64-linux-gnu-g++)

# Headers and libraries come from the target's root only; programs (such as
# model-compiler) from the host; packages from both (glowc's own is a host tool's).
list(APPEND CMAKE_FIND_ROOT_PATH /usr/riscv64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

find_program(GLOWC_QEMU_RISCV64 qemu-riscv64)
if(GLOWC_QEMU_RISCV64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${GLOWC_QEMU_RISCV64} -L /usr/riscv64-linux-gnu)
endif()
