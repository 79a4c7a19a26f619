#[=======================================================================[.rst:
GlowBundle
----------

Compiles an ONNX or TFLite model into a bundle at build time and makes it a library
target that programs link like any other. ``find_package(glowc)`` includes this
module; so does ``add_subdirectory()`` of the glowc source tree.

.. command:: add_glow_bundle

  ::

    add_glow_bundle(<target> MODEL <file.onnx or .tflite>
                    [NETWORK_NAME <name>]
                    [BUNDLE_API static|dynamic]
                    [PROFILE <file or glow_profile target>]
                    [QUANTIZATION_SCHEMA <schema>]
                    [WEIGHTS <bin|txt|zst|embedded>...]
                    [TARGET <triple>]
                    [CPU <cpu>]
                    [FEATURES <feature>...]
                    [MODEL_INPUTS <name,type,[d0,d1,...]>...]
                    [NUM_THREADS <n>]
                    [RAM_SIZE <bytes>[K|M|G]] [FLASH_SIZE <bytes>[K|M|G]]
                    [PASS_PLUGINS <target or file>...]
                    [PASSES <name>...]
                    [OPTIONS <model-compiler option>...])

  ``MODEL``
    The model: an ONNX file or a TFLite file (``.tflite``); relative paths are
    taken from the current source folder.
    A file-level dependency: editing it recompiles the bundle.
  ``NETWORK_NAME``
    The bundle's name: symbol, header and file names (default: ``<target>``).
    Must be a C identifier.
  ``BUNDLE_API``
    ``dynamic`` (the default here: the runtime library can use it) or ``static``
    (offset macros in the header; the compiler then also writes
    ``<name>.weights.txt``).
  ``PROFILE``
    A quantization profile: a YAML file (a file-level dependency) or a
    ``glow_profile()`` target (its ``GLOW_PROFILE`` property names the file).
    Passed as ``-load-profile=<file>``: the bundle is quantized to int8.
  ``QUANTIZATION_SCHEMA``
    Passed as ``-quantization-schema=<schema>`` (asymmetric, symmetric,
    symmetric_with_uint8, symmetric_with_power2_scale); other quantization
    options go in ``OPTIONS``.
  ``WEIGHTS``
    How the constant weights ship, one or more of (``-weights=``): ``bin`` (the
    default): ``<name>.weights.bin``, raw. ``txt``: ``<name>.weights.txt``, the
    same bytes as a C initializer list; the compiler writes it (next to the
    ``.bin``) only for the static API, so ``txt`` needs ``BUNDLE_API static``.
    ``zst``: ``<name>.weights.zst``, packed with zstd and checked
    (``glow_weights_load_zst()``). ``embedded``: inside the object (section
    ``.rodata.glow.<name>``, symbol ``<name>_constant_weights``), no weights
    file. ``embedded zst``: the packed bytes inside the object
    (``<name>_constant_weights_zst``, for ``glow_weights_unpack()``), no
    weights file. With ``zst``, the target also links ``glowc::runtime_zst``
    (the loader) where that library exists.
  ``TARGET``
    The target triple (``-target=``). Without it the triple follows the
    toolchain: when cross-compiling, ``CMAKE_C_COMPILER_TARGET`` if set, else
    one derived from ``CMAKE_SYSTEM_NAME`` and ``CMAKE_SYSTEM_PROCESSOR``
    (Linux ``aarch64`` or ``arm64`` gives ``aarch64-linux-gnu``, Linux
    ``riscv64`` gives ``riscv64-linux-gnu``, Linux ``arm``, ``armv7l``,
    ``armv7``, ``armv7-a``, ``armhf`` or ``armv8l`` (a 32-bit system on an
    Armv8 core) gives ``armv7-linux-gnueabihf``, Linux ``x86_64`` gives
    ``x86_64-unknown-linux-gnu``, Generic ``cortex-m4``, ``cortex-m7``,
    ``armv7e-m`` or ``arm`` gives ``thumbv7em-none-eabihf``, Generic
    ``cortex-m0``, ``cortex-m0plus``, ``cortex-m1`` or ``armv6-m`` gives
    ``thumbv6m-none-eabi``, Generic ``cortex-m33``, ``cortex-m35p`` or
    ``armv8-m.main`` gives ``thumbv8m.main-none-eabihf``, Generic
    ``cortex-m55``, ``cortex-m85`` or ``armv8.1-m.main`` gives
    ``thumbv8.1m.main-none-eabihf``; any other
    processor is a configure error asking for ``TARGET``); when not, nothing
    is passed and the compiler targets the host. CMake never probes the host
    CPU (the compiler does, see ``CPU``). ``toolchains/`` holds toolchain files for these targets.
    ``nvptx64-nvidia-cuda`` makes a CUDA bundle: PTX for the GPU (``CPU sm_80``,
    ``sm_90``, ...) in an object for the machine the program is built for (the
    cross toolchain's triple when cross-compiling, passed as ``-cuda-host=``), which
    calls the CUDA driver. The target then links ``glowc::runtime_cuda``
    (``glow_instance_create_cuda()``), which defines those driver calls and loads
    libcuda.so.1 when they are first made: no CUDA toolkit is needed to build, and
    a program starts without an NVIDIA driver (glow_instance_create_cuda() then says
    so). ``WEIGHTS embedded`` is an error for it: a GPU bundle's weights are copied
    to device memory from the weights file.
  ``CPU``
    The target CPU (``-mcpu=``), e.g. ``znver4``. Default: none is passed, so
    a bundle for the host (not cross-compiling) gets the host's CPU, the
    fastest code there, and a cross-compiled one its triple's portable
    baseline. Give ``CPU baseline`` (x86-64-v2, generic Armv8-A, RV64GC) or a
    named CPU for host bundles that must run on other machines, e.g. ones a
    package or a shared cache hands out.
  ``NUM_THREADS``
    Passed as ``-num-threads=<n>``: the bundle splits its convolution, matrix
    product and pooling steps into ``n`` parts, run by the thread pool of
    ``glowc::runtime_threads`` when the program links it (on the calling
    thread otherwise). Outputs are the same bits for any thread count.
  ``RAM_SIZE``, ``FLASH_SIZE``
    The board's memory the bundle may use, e.g. ``RAM_SIZE 192K FLASH_SIZE
    1M`` (K: 1024 bytes), passed as ``-ram-size=`` and ``-flash-size=``: the
    build fails, naming each part of the bundle (activations, mutable and
    constant weights, the entry point's measured stack; code and read-only
    data) and what to change, when it does not fit.
  ``FEATURES``
    Target features to add (``avx512f`` or ``+avx512f``) or remove
    (``-avx512f``), passed as one ``-mattr=+a,-b``.
  ``MODEL_INPUTS``
    Types and shapes of inputs, one ``name,type,[d0,d1,...]`` per input, each
    passed as ``-model-input=``.
  ``PASS_PLUGINS``
    Graph-pass plugins (``-load-pass=``), in the order they load: ``MODULE``
    library targets of this project (built first) or shared-library files
    (file-level dependencies). A rebuilt plugin recompiles the bundle.
  ``PASSES``
    The plugin passes that run, in order (one ``-pass=``); without it, every
    pass the plugins register runs. A bundle with a ``PROFILE`` needs the
    profile taken with the same plugins (``glow_profile()`` takes these two too).
  ``OPTIONS``
    Further ``model-compiler`` options, passed unchanged.

  ``<target>`` is an INTERFACE library carrying the bundle's object and the
  folder holding ``<name>.h``: ``target_link_libraries(app PRIVATE <target>)``.
  Its ``GLOW_WEIGHTS`` property lists the weights files written (the ``.bin``
  first), ``GLOW_BUNDLE_DIR`` the folder of all bundle files. Every bundle file
  is a declared, ``GENERATED`` output. The compiler (``glowc::model-compiler``
  from an installed package, the ``model-compiler`` target in the source tree)
  is a dependency of the command, so a rebuilt compiler recompiles the bundle;
  the kernels are embedded in the compiler, so they come with it.
#]=======================================================================]

# The triple for a cross build, from the toolchain: the triple, "" when not
# cross-compiling (the compiler then targets the host), or NOTFOUND after an
# error when the toolchain names a processor this cannot map: a bundle silently
# built for the host would only fail at link time, far from the cause.
function(_glow_bundle_default_triple out where)
  set(triple "")
  string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" cpu)
  if(NOT CMAKE_CROSSCOMPILING)
  elseif(CMAKE_C_COMPILER_TARGET)
    set(triple ${CMAKE_C_COMPILER_TARGET})
  elseif(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND cpu MATCHES "^(aarch64|arm64)$")
    set(triple aarch64-linux-gnu)
  elseif(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND cpu STREQUAL "riscv64")
    set(triple riscv64-linux-gnu)
  elseif(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND cpu MATCHES "^(arm|armhf|armv7|armv7l|armv7-a|armv8l)$")
    set(triple armv7-linux-gnueabihf)
  elseif(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND cpu MATCHES "^(x86_64|amd64)$")
    set(triple x86_64-unknown-linux-gnu)
  elseif(CMAKE_SYSTEM_NAME STREQUAL "Generic" AND cpu MATCHES "^(cortex-m4|cortex-m7|armv7e-m|arm)$")
    set(triple thumbv7em-none-eabihf)
  elseif(CMAKE_SYSTEM_NAME STREQUAL "Generic" AND cpu MATCHES "^(cortex-m0|cortex-m0plus|cortex-m1|armv6-m|armv6s-m)$")
    set(triple thumbv6m-none-eabi)
  elseif(CMAKE_SYSTEM_NAME STREQUAL "Generic" AND cpu MATCHES "^(cortex-m33|cortex-m35p|armv8-m.main)$")
    set(triple thumbv8m.main-none-eabihf)
  elseif(CMAKE_SYSTEM_NAME STREQUAL "Generic" AND cpu MATCHES "^(cortex-m55|cortex-m85|armv8.1-m.main)$")
    set(triple thumbv8.1m.main-none-eabihf)
  else()
    message(SEND_ERROR "${where}: no target triple for this cross build: CMAKE_SYSTEM_PROCESSOR "
      "'${CMAKE_SYSTEM_PROCESSOR}' (CMAKE_SYSTEM_NAME '${CMAKE_SYSTEM_NAME}') is not one add_glow_bundle() "
      "knows. Pass TARGET <triple> to add_glow_bundle(), or set CMAKE_C_COMPILER_TARGET in the toolchain file.")
    set(triple NOTFOUND)
  endif()
  set(${out} "${triple}" PARENT_SCOPE)
endfunction()

# A glowc tool: in the source tree the <name> target; from an installed package,
# the imported glowc::<name>. Empty (after an error) when neither exists.
function(_glow_tool out name where)
  if(TARGET ${name})
    set(${out} ${name} PARENT_SCOPE)
  elseif(TARGET glowc::${name})
    set(${out} glowc::${name} PARENT_SCOPE)
  else()
    message(SEND_ERROR "${where}: no glowc ${name}: find_package(glowc) or add_subdirectory() the glowc sources first")
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# PASS_PLUGINS and PASSES as model-compiler options (-load-pass=, -pass=) in
# <flags>, and what the command depends on in <deps>; <bad> TRUE after an error.
function(_glow_pass_plugin_flags flags deps bad where plugins passes)
  set(f "")
  set(d "")
  set(b FALSE)
  foreach(p ${plugins})
    if(TARGET ${p})
      get_target_property(type ${p} TYPE)
      if(NOT type MATCHES "^(MODULE_LIBRARY|SHARED_LIBRARY)$")
        message(SEND_ERROR "${where}: PASS_PLUGINS target '${p}' is a ${type}, not a MODULE or SHARED library")
        set(b TRUE)
      endif()
      list(APPEND f -load-pass=$<TARGET_FILE:${p}>)
      list(APPEND d ${p} $<TARGET_FILE:${p}>)
    else()
      get_filename_component(file ${p} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
      list(APPEND f -load-pass=${file})
      list(APPEND d ${file})
    endif()
  endforeach()
  foreach(n ${passes})
    if(NOT n MATCHES "^[A-Za-z0-9_.-]+$")
      message(SEND_ERROR "${where}: PASSES: '${n}' is not a pass name")
      set(b TRUE)
    endif()
  endforeach()
  if(passes)
    if(NOT plugins)
      message(SEND_ERROR "${where}: PASSES needs the PASS_PLUGINS that register them")
      set(b TRUE)
    endif()
    list(JOIN passes "," joined)
    list(APPEND f -pass=${joined})
  endif()
  set(${flags} "${f}" PARENT_SCOPE)
  set(${deps} "${d}" PARENT_SCOPE)
  set(${bad} ${b} PARENT_SCOPE)
endfunction()

function(add_glow_bundle target)
  cmake_parse_arguments(PARSE_ARGV 1 arg ""
    "MODEL;NETWORK_NAME;BUNDLE_API;PROFILE;QUANTIZATION_SCHEMA;TARGET;CPU;NUM_THREADS;RAM_SIZE;FLASH_SIZE"
    "WEIGHTS;FEATURES;MODEL_INPUTS;OPTIONS;PASS_PLUGINS;PASSES")
  set(where "add_glow_bundle(${target})")
  set(bad FALSE)
  if(arg_UNPARSED_ARGUMENTS)
    message(SEND_ERROR "${where}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
    set(bad TRUE)
  endif()
  foreach(kw ${arg_KEYWORDS_MISSING_VALUES})
    message(SEND_ERROR "${where}: ${kw} needs a value")
    set(bad TRUE)
  endforeach()
  if(NOT arg_MODEL)
    message(SEND_ERROR "${where}: MODEL <file.onnx or .tflite> is required")
    set(bad TRUE)
  endif()
  if(NOT arg_NETWORK_NAME)
    set(arg_NETWORK_NAME ${target})
  endif()
  if(NOT arg_NETWORK_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(SEND_ERROR "${where}: NETWORK_NAME '${arg_NETWORK_NAME}' is not a C identifier")
    set(bad TRUE)
  endif()
  if(NOT arg_BUNDLE_API)
    set(arg_BUNDLE_API dynamic)
  endif()
  if(NOT arg_BUNDLE_API MATCHES "^(static|dynamic)$")
    message(SEND_ERROR "${where}: BUNDLE_API must be static or dynamic, not '${arg_BUNDLE_API}'")
    set(bad TRUE)
  endif()
  if(NOT arg_WEIGHTS)
    set(arg_WEIGHTS bin)
  endif()
  foreach(kind ${arg_WEIGHTS})
    if(NOT kind MATCHES "^(bin|txt|zst|embedded)$")
      message(SEND_ERROR "${where}: WEIGHTS must be bin, txt, zst or embedded (one or more), not '${kind}'")
      set(bad TRUE)
    endif()
  endforeach()
  if("txt" IN_LIST arg_WEIGHTS AND NOT arg_BUNDLE_API STREQUAL "static")
    message(SEND_ERROR "${where}: WEIGHTS txt needs BUNDLE_API static (the compiler writes <name>.weights.txt only for the static API)")
    set(bad TRUE)
  endif()
  if(DEFINED arg_TARGET AND NOT arg_TARGET MATCHES "^[A-Za-z0-9_.]+(-[A-Za-z0-9_.]+)+$")
    message(SEND_ERROR "${where}: TARGET '${arg_TARGET}' is not a target triple (arch-vendor-os...)")
    set(bad TRUE)
  endif()
  if(DEFINED arg_CPU AND NOT arg_CPU MATCHES "^[A-Za-z0-9_.-]+$")
    message(SEND_ERROR "${where}: CPU '${arg_CPU}' is not a CPU name")
    set(bad TRUE)
  endif()
  foreach(kw RAM_SIZE FLASH_SIZE)
    if(DEFINED arg_${kw} AND NOT arg_${kw} MATCHES "^[0-9]+([KkMmGg](i?B)?)?$")
      message(SEND_ERROR "${where}: ${kw} '${arg_${kw}}' is not a size of memory (bytes, or K, M or G: e.g. 256K)")
      set(bad TRUE)
    endif()
  endforeach()
  set(mattr "")
  foreach(f ${arg_FEATURES})
    if(NOT f MATCHES "^[+-]?[A-Za-z0-9_.-]+$")
      message(SEND_ERROR "${where}: FEATURES: '${f}' is not a feature name")
      set(bad TRUE)
    elseif(NOT f MATCHES "^[+-]")
      set(f "+${f}")
    endif()
    list(APPEND mattr ${f})
  endforeach()
  foreach(i ${arg_MODEL_INPUTS})
    if(NOT i MATCHES "^[^,]+,[A-Za-z0-9_]+,\\[[0-9,]*\\]$")
      message(SEND_ERROR "${where}: MODEL_INPUTS: '${i}' is not <name>,<type>,[d0,d1,...]")
      set(bad TRUE)
    endif()
  endforeach()
  set(profile "")
  set(profile_target "")
  if(arg_PROFILE)
    if(TARGET ${arg_PROFILE})
      get_target_property(profile ${arg_PROFILE} GLOW_PROFILE)
      if(NOT profile)
        message(SEND_ERROR "${where}: PROFILE target '${arg_PROFILE}' has no GLOW_PROFILE property")
        set(bad TRUE)
      endif()
      set(profile_target ${arg_PROFILE})
    else()
      get_filename_component(profile ${arg_PROFILE} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    endif()
  endif()
  _glow_tool(compiler model-compiler "${where}")
  if(NOT compiler)
    set(bad TRUE)
  endif()
  _glow_pass_plugin_flags(plugin_flags plugin_deps plugin_bad "${where}" "${arg_PASS_PLUGINS}" "${arg_PASSES}")
  if(plugin_bad)
    set(bad TRUE)
  endif()
  if(NOT DEFINED arg_TARGET)
    _glow_bundle_default_triple(arg_TARGET "${where}")
    if(arg_TARGET STREQUAL "NOTFOUND")
      set(bad TRUE)
    endif()
  endif()
  if(bad)
    return()
  endif()

  get_filename_component(model ${arg_MODEL} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.bundle)
  set(name ${arg_NETWORK_NAME})

  set(flags -network-name=${name} -bundle-api=${arg_BUNDLE_API})
  if(arg_TARGET)
    list(APPEND flags -target=${arg_TARGET})
  endif()
  set(cuda FALSE)
  if(arg_TARGET MATCHES "^nvptx64-")
    set(cuda TRUE)
    _glow_bundle_default_triple(host "${where}")
    if(host STREQUAL "NOTFOUND")
      return()
    elseif(host)
      list(APPEND flags -cuda-host=${host})
    endif()
    if("embedded" IN_LIST arg_WEIGHTS)
      message(SEND_ERROR "${where}: WEIGHTS embedded is not for a CUDA bundle (TARGET ${arg_TARGET}): its weights "
        "are copied to device memory from a weights file; use WEIGHTS bin or zst")
      return()
    endif()
  endif()
  if(DEFINED arg_CPU)
    list(APPEND flags -mcpu=${arg_CPU})
  endif()
  if(DEFINED arg_NUM_THREADS)
    list(APPEND flags -num-threads=${arg_NUM_THREADS})
  endif()
  if(DEFINED arg_RAM_SIZE)
    list(APPEND flags -ram-size=${arg_RAM_SIZE})
  endif()
  if(DEFINED arg_FLASH_SIZE)
    list(APPEND flags -flash-size=${arg_FLASH_SIZE})
  endif()
  if(mattr)
    string(REPLACE ";" "," mattr "${mattr}")
    list(APPEND flags -mattr=${mattr})
  endif()
  foreach(i ${arg_MODEL_INPUTS})
    list(APPEND flags -model-input=${i})
  endforeach()
  if(profile)
    list(APPEND flags -load-profile=${profile})
  endif()
  list(APPEND flags ${plugin_flags})
  if(DEFINED arg_QUANTIZATION_SCHEMA)
    list(APPEND flags -quantization-schema=${arg_QUANTIZATION_SCHEMA})
  endif()
  # txt comes with the .bin, and the static API's .bin with its .txt (as the compiler's default).
  set(kinds ${arg_WEIGHTS})
  if("txt" IN_LIST kinds OR ("bin" IN_LIST kinds AND arg_BUNDLE_API STREQUAL "static"))
    list(APPEND kinds bin txt)
  endif()
  list(REMOVE_DUPLICATES kinds)
  list(JOIN kinds "," kinds_flag)
  list(APPEND flags -weights=${kinds_flag})

  set(outputs ${dir}/${name}.o ${dir}/${name}.h)
  set(weights "")
  foreach(kind bin txt)
    if(kind IN_LIST kinds)
      list(APPEND weights ${dir}/${name}.weights.${kind})
    endif()
  endforeach()
  if("zst" IN_LIST kinds AND NOT "embedded" IN_LIST kinds)
    list(APPEND weights ${dir}/${name}.weights.zst)
  endif()
  list(APPEND outputs ${weights})

  add_custom_command(OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${compiler} -model=${model} -emit-bundle=${dir} ${flags} ${arg_OPTIONS}
    DEPENDS ${compiler} $<TARGET_FILE:${compiler}> ${model} ${profile} ${profile_target} ${plugin_deps}
    COMMENT "Compiling ${arg_MODEL} into bundle ${name} (${target})"
    VERBATIM)
  set_source_files_properties(${outputs} PROPERTIES GENERATED TRUE)
  set_source_files_properties(${dir}/${name}.o PROPERTIES EXTERNAL_OBJECT TRUE)
  add_custom_target(${target}.compile DEPENDS ${outputs})
  add_library(${target} INTERFACE)
  add_dependencies(${target} ${target}.compile)
  target_sources(${target} INTERFACE ${dir}/${name}.o)
  target_include_directories(${target} INTERFACE ${dir})
  set_target_properties(${target} PROPERTIES GLOW_WEIGHTS "${weights}" GLOW_BUNDLE_DIR ${dir})
  if("zst" IN_LIST arg_WEIGHTS AND TARGET glowc::runtime_zst)
    target_link_libraries(${target} INTERFACE glowc::runtime_zst)
  endif()
  if(cuda)
    if(TARGET glowc::runtime_cuda)
      target_link_libraries(${target} INTERFACE glowc::runtime_cuda)
    elseif(TARGET glowc_runtime_cuda)
      target_link_libraries(${target} INTERFACE glowc_runtime_cuda)
    endif()
  endif()
endfunction()
