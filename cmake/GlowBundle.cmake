#[=======================================================================[.rst:
GlowBundle
----------

Compiles an ONNX model into a bundle at build time and makes it a library
target that programs link like any other.

.. command:: add_glow_bundle

  ::

    add_glow_bundle(<target> MODEL <file.onnx>
                    [NETWORK_NAME <name>]
                    [BUNDLE_API static|dynamic]
                    [OPTIONS <model-compiler option>...])

  ``MODEL``
    The ONNX model (relative paths are taken from the current source folder).
    A file-level dependency: editing it recompiles the bundle.
  ``NETWORK_NAME``
    The bundle's name: symbol, header and file names (default: ``<target>``).
  ``BUNDLE_API``
    ``dynamic`` (the default here: the runtime library can use it) or ``static``
    (also writes ``<name>.weights.txt``).
  ``OPTIONS``
    Further ``model-compiler`` options, passed unchanged (``-mcpu=...``).

  ``<target>`` is an INTERFACE library carrying the bundle's object and the
  folder holding ``<name>.h``: ``target_link_libraries(app PRIVATE <target>)``.
  Its ``GLOW_WEIGHTS`` property names the weights file. The compiler itself is a
  dependency, so a rebuilt compiler recompiles the bundle.
#]=======================================================================]

function(add_glow_bundle target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "MODEL;NETWORK_NAME;BUNDLE_API" "OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(SEND_ERROR "add_glow_bundle(${target}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
    return()
  endif()
  if(NOT arg_MODEL)
    message(SEND_ERROR "add_glow_bundle(${target}): MODEL <file.onnx> is required")
    return()
  endif()
  if(NOT arg_NETWORK_NAME)
    set(arg_NETWORK_NAME ${target})
  endif()
  if(NOT arg_NETWORK_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(SEND_ERROR "add_glow_bundle(${target}): NETWORK_NAME '${arg_NETWORK_NAME}' is not a C identifier")
    return()
  endif()
  if(NOT arg_BUNDLE_API)
    set(arg_BUNDLE_API dynamic)
  endif()
  if(NOT arg_BUNDLE_API MATCHES "^(static|dynamic)$")
    message(SEND_ERROR "add_glow_bundle(${target}): BUNDLE_API must be static or dynamic, not '${arg_BUNDLE_API}'")
    return()
  endif()
  if(NOT TARGET model-compiler)
    message(SEND_ERROR "add_glow_bundle(${target}): no model-compiler target in this project")
    return()
  endif()

  get_filename_component(model ${arg_MODEL} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.bundle)
  set(name ${arg_NETWORK_NAME})
  set(outputs ${dir}/${name}.o ${dir}/${name}.h ${dir}/${name}.weights.bin)
  if(arg_BUNDLE_API STREQUAL "static")
    list(APPEND outputs ${dir}/${name}.weights.txt)
  endif()
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND model-compiler -model=${model} -emit-bundle=${dir} -network-name=${name}
            -bundle-api=${arg_BUNDLE_API} ${arg_OPTIONS}
    DEPENDS model-compiler ${model}
    COMMENT "Compiling ${arg_MODEL} into bundle ${name}"
    VERBATIM)
  set_source_files_properties(${outputs} PROPERTIES GENERATED TRUE)
  set_source_files_properties(${dir}/${name}.o PROPERTIES EXTERNAL_OBJECT TRUE)
  add_custom_target(${target}.compile DEPENDS ${outputs})
  add_library(${target} INTERFACE)
  add_dependencies(${target} ${target}.compile)
  target_sources(${target} INTERFACE ${dir}/${name}.o)
  target_include_directories(${target} INTERFACE ${dir})
  set_target_properties(${target} PROPERTIES GLOW_WEIGHTS ${dir}/${name}.weights.bin)
endfunction()
