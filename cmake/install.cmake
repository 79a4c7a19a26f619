# The installed package: the tools, the runtime and find_package(glowc) support.
# The kernels are bitcode embedded in the compiler binary, so nothing else ships.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS model-compiler glowc model-profiler glowc-run image-classifier glowc-cache EXPORT glowcTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Graph-pass plugins: the header, and glowc::pass_plugin (an interface target) that carries it.
install(TARGETS glowc_pass_plugin EXPORT glowcTargets)
install(FILES ${PROJECT_SOURCE_DIR}/compiler/glowc-pass.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The runtime library, built for this machine, in an export set of its own: a
# cross-compiling project gets glowc::runtime built from the installed sources
# for its target instead (glowcConfig.cmake).
install(TARGETS glowc_runtime glowc_runtime_zst glowc_runtime_threads glowc_runtime_cuda EXPORT glowcRuntimeTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/runtime/runtime.c ${PROJECT_SOURCE_DIR}/runtime/runfiles.c
              ${PROJECT_SOURCE_DIR}/runtime/glow-runtime.h
              ${PROJECT_SOURCE_DIR}/runtime/runtime-internal.h ${PROJECT_SOURCE_DIR}/runtime/cuda.c
              ${PROJECT_SOURCE_DIR}/runtime/cuda-loader.c ${PROJECT_SOURCE_DIR}/runtime/cuda-driver.h
  DESTINATION ${CMAKE_INSTALL_DATADIR}/glowc/runtime)
# Toolchain files for the cross targets (toolchains/README in the source tree).
file(GLOB glowc_toolchain_files ${PROJECT_SOURCE_DIR}/toolchains/*.cmake)
install(FILES ${glowc_toolchain_files} DESTINATION ${CMAKE_INSTALL_DATADIR}/glowc/toolchains)

set(glowc_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/glowc)
install(EXPORT glowcTargets NAMESPACE glowc:: DESTINATION ${glowc_cmake_dir})
install(EXPORT glowcRuntimeTargets NAMESPACE glowc:: DESTINATION ${glowc_cmake_dir})
# Where glowcConfig.cmake finds the runtime sources, relative to itself.
file(RELATIVE_PATH glowc_share_rel /prefix/${glowc_cmake_dir} /prefix/${CMAKE_INSTALL_DATADIR}/glowc)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/glowcPaths.cmake
  "set(_glowc_share_dir \"\${CMAKE_CURRENT_LIST_DIR}/${glowc_share_rel}\")\n")
# ARCH_INDEPENDENT: the package is host tools that cross builds use too; without
# it a 32-bit project (Cortex-M) finds glowc "unsuitable (64bit)".
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/glowcConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/glowcConfig.cmake ${CMAKE_CURRENT_LIST_DIR}/GlowBundle.cmake ${CMAKE_CURRENT_LIST_DIR}/GlowProfile.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/glowcConfigVersion.cmake ${CMAKE_CURRENT_BINARY_DIR}/glowcPaths.cmake
  DESTINATION ${glowc_cmake_dir})
