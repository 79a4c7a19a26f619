#[=======================================================================[.rst:
GlowProfile
-----------

A quantization profile as a build artifact: the model run by
``model-profiler`` over calibration data at build time. ``find_package(glowc)``
includes this module; so does ``add_subdirectory()`` of the glowc source tree.

.. command:: glow_profile

  ::

    glow_profile(<target> MODEL <file.onnx or .tflite>
                 INPUT_DATASET <input>,rawbin|rawtxt,<file or dir> [...]
                 [OUTPUT <file.yml>]
                 [PASS_PLUGINS <target or file>...]
                 [PASSES <name>...]
                 [OPTIONS <model-profiler option>...])

  ``<target>`` builds the profile (``<build dir>/<target>.yml`` unless
  ``OUTPUT`` names another file) and has it in its ``GLOW_PROFILE`` property,
  so ``add_glow_bundle(... PROFILE <target>)`` quantizes with it. One
  ``INPUT_DATASET`` per model input, as ``-input-dataset=``; a relative path is
  taken from the current source directory. The profile depends on the model
  and on every calibration file (a directory's files are globbed with
  ``CONFIGURE_DEPENDS``, so an added file is noticed too): editing one
  re-profiles, and through ``PROFILE`` recompiles the bundles that use it;
  nothing else does. Profiles are deterministic, so compile caches share them.
  ``PASS_PLUGINS`` and ``PASSES`` are those of ``add_glow_bundle()``: a bundle
  compiled with graph-pass plugins needs its profile taken with the same ones.
#]=======================================================================]

function(glow_profile target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "MODEL;OUTPUT" "INPUT_DATASET;OPTIONS;PASS_PLUGINS;PASSES")
  set(where "glow_profile(${target})")
  set(bad FALSE)
  if(arg_UNPARSED_ARGUMENTS)
    message(SEND_ERROR "${where}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
    set(bad TRUE)
  endif()
  if(NOT arg_MODEL)
    message(SEND_ERROR "${where}: MODEL <file.onnx or .tflite> is required")
    set(bad TRUE)
  endif()
  if(NOT arg_INPUT_DATASET)
    message(SEND_ERROR "${where}: INPUT_DATASET <input>,rawbin|rawtxt,<file or dir> is required (one per input)")
    set(bad TRUE)
  endif()
  _glow_tool(profiler model-profiler "${where}") # GlowBundle.cmake
  if(NOT profiler)
    set(bad TRUE)
  endif()
  _glow_pass_plugin_flags(plugin_flags plugin_deps plugin_bad "${where}" "${arg_PASS_PLUGINS}" "${arg_PASSES}")
  if(plugin_bad)
    set(bad TRUE)
  endif()
  set(specs)
  set(deps)
  foreach(ds ${arg_INPUT_DATASET})
    if(NOT ds MATCHES "^([^,]+),(rawbin|rawtxt),(.+)$")
      message(SEND_ERROR "${where}: INPUT_DATASET '${ds}' is not <input>,rawbin|rawtxt,<file or dir>")
      set(bad TRUE)
      continue()
    endif()
    set(input ${CMAKE_MATCH_1})
    set(kind ${CMAKE_MATCH_2})
    get_filename_component(path ${CMAKE_MATCH_3} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    if(IS_DIRECTORY ${path})
      file(GLOB files CONFIGURE_DEPENDS ${path}/*)
      list(APPEND deps ${files})
    elseif(EXISTS ${path})
      list(APPEND deps ${path})
    else()
      message(SEND_ERROR "${where}: INPUT_DATASET '${ds}': no file or directory ${path}")
      set(bad TRUE)
    endif()
    list(APPEND specs -input-dataset=${input},${kind},${path})
  endforeach()
  if(bad)
    return()
  endif()
  get_filename_component(model ${arg_MODEL} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  if(arg_OUTPUT)
    get_filename_component(out ${arg_OUTPUT} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_BINARY_DIR})
  else()
    set(out ${CMAKE_CURRENT_BINARY_DIR}/${target}.yml)
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND ${profiler} -model=${model} ${specs} -dump-profile=${out} ${plugin_flags} ${arg_OPTIONS}
    DEPENDS ${profiler} $<TARGET_FILE:${profiler}> ${model} ${deps} ${plugin_deps}
    COMMENT "Profiling ${arg_MODEL} for quantization (${target})"
    VERBATIM)
  add_custom_target(${target} DEPENDS ${out})
  set_target_properties(${target} PROPERTIES GLOW_PROFILE ${out})
endfunction()
