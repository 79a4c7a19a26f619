# find_package(glowc): the imported targets glowc::model-compiler, glowc::glowc,
# glowc::model-profiler and glowc::runtime, and add_glow_bundle()
# (GlowBundle.cmake), which uses the imported compiler. The kernels are embedded
# in the compiler binary.
include(${CMAKE_CURRENT_LIST_DIR}/glowcTargets.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/GlowBundle.cmake)
