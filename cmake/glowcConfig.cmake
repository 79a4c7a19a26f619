# find_package(glowc): the imported targets glowc::model-compiler, glowc::glowc,
# glowc::model-profiler, glowc::image-classifier, glowc::glowc-cache and glowc::runtime (and
# glowc::runtime_zst, the packed weights loader, which links libzstd and
# libxxhash; glowc::runtime_threads, the thread pool of -num-threads bundles;
# glowc::runtime_cuda, instances of CUDA bundles and the CUDA driver loaded at run
# time), and add_glow_bundle() (GlowBundle.cmake), which uses the imported
# compiler. The kernels are embedded in the compiler binary.
#
# Cross-compiling, the compiler still runs on this machine, but the installed
# runtime archive is built for it, not for the target: glowc::runtime is then
# built in the consuming project from the installed sources, with its toolchain
# (only if something links it, and only in a project with C enabled). No
# glowc::runtime_zst then: the target would need its own libzstd and libxxhash. For a 64-bit
# Linux target, glowc::runtime_cuda is built from the installed sources the same way.
include(${CMAKE_CURRENT_LIST_DIR}/glowcTargets.cmake)
get_property(_glowc_languages GLOBAL PROPERTY ENABLED_LANGUAGES) # a project without C gets no runtime
if(NOT CMAKE_CROSSCOMPILING)
  if("C" IN_LIST _glowc_languages OR "CXX" IN_LIST _glowc_languages) # FindThreads needs one
    include(CMakeFindDependencyMacro)
    find_dependency(Threads) # glowc::runtime_threads (the pool of -num-threads bundles), runtime_cuda
  endif()
  include(${CMAKE_CURRENT_LIST_DIR}/glowcRuntimeTargets.cmake)
elseif(NOT TARGET glowc::runtime AND "C" IN_LIST _glowc_languages)
  include(${CMAKE_CURRENT_LIST_DIR}/glowcPaths.cmake)
  set(_glowc_runtime_dir ${_glowc_share_dir}/runtime)
  add_library(glowc_runtime_for_target STATIC EXCLUDE_FROM_ALL ${_glowc_runtime_dir}/runtime.c
              ${_glowc_runtime_dir}/runfiles.c)
  target_include_directories(glowc_runtime_for_target PUBLIC ${_glowc_runtime_dir})
  add_library(glowc::runtime ALIAS glowc_runtime_for_target)
  # CUDA bundles' runtime for a Linux target (e.g. a Jetson): it needs only libdl and pthreads there.
  # 64-bit only: a CUDA bundle's host is x86-64 or AArch64 (-cuda-host), never 32-bit Arm.
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_SIZEOF_VOID_P EQUAL 8)
    find_package(Threads)
    add_library(glowc_runtime_cuda_for_target STATIC EXCLUDE_FROM_ALL ${_glowc_runtime_dir}/cuda.c
                ${_glowc_runtime_dir}/cuda-loader.c)
    target_link_libraries(glowc_runtime_cuda_for_target PUBLIC glowc_runtime_for_target Threads::Threads
                          ${CMAKE_DL_LIBS})
    add_library(glowc::runtime_cuda ALIAS glowc_runtime_cuda_for_target)
  endif()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/GlowBundle.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/GlowProfile.cmake)
