# The installed package: the tools, the runtime and find_package(glowc) support.
# The kernels are bitcode embedded in the compiler binary, so nothing else ships.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS model-compiler glowc model-profiler EXPORT glowcTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS glowc_runtime EXPORT glowcTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(glowc_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/glowc)
install(EXPORT glowcTargets NAMESPACE glowc:: DESTINATION ${glowc_cmake_dir})
# ARCH_INDEPENDENT: the package is host tools that cross builds use too; without
# it a 32-bit project (Cortex-M) finds glowc "unsuitable (64bit)".
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/glowcConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/glowcConfig.cmake ${CMAKE_CURRENT_LIST_DIR}/GlowBundle.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/glowcConfigVersion.cmake
  DESTINATION ${glowc_cmake_dir})
