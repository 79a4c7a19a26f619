# A toolchain file naming only the system: no cross compiler is needed to configure.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
