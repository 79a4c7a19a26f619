# Shared by aarch64-linux-gnu.cmake, riscv64-linux-gnu.cmake and arm-linux-gnueabihf.cmake, which
# set GLOWC_CROSS_ARCH (aarch64, riscv64, arm: the qemu-<arch> that runs the programs) first, and
# GLOWC_CROSS_GNU when Debian's triple is not <arch>-linux-gnu, GLOWC_CROSS_PROCESSOR when
# CMAKE_SYSTEM_PROCESSOR is not <arch>: Debian's <triple>-gcc, the target's root for headers and
# libraries, qemu-<arch> to run the programs.
if(NOT GLOWC_CROSS_GNU)
  set(GLOWC_CROSS_GNU ${GLOWC_CROSS_ARCH}-linux-gnu)
endif()
if(NOT GLOWC_CROSS_PROCESSOR)
  set(GLOWC_CROSS_PROCESSOR ${GLOWC_CROSS_ARCH})
endif()
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${GLOWC_CROSS_PROCESSOR})

set(CMAKE_C_COMPILER ${GLOWC_CROSS_GNU}-gcc)
set(CMAKE_CXX_COMPILER ${GLOWC_CROSS_GNU}-g++)

# Headers and libraries come from the target's root only; programs (such as
# model-compiler) from the host; packages from both (glowc's own is a host tool's).
list(APPEND CMAKE_FIND_ROOT_PATH /usr/${GLOWC_CROSS_GNU})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

find_program(GLOWC_QEMU_${GLOWC_CROSS_ARCH} qemu-${GLOWC_CROSS_ARCH})
if(GLOWC_QEMU_${GLOWC_CROSS_ARCH})
  set(CMAKE_CROSSCOMPILING_EMULATOR ${GLOWC_QEMU_${GLOWC_CROSS_ARCH}} -L /usr/${GLOWC_CROSS_GNU})
endif()
