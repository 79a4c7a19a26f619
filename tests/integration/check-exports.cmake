# Checks that a bundle object defines no global symbol but those its ABI names (the
# entry, <name>_config, <name>_tensor_info), so that several bundles link into one
# program: its steps and their kernels stay local however the compiler built them.
#   cmake -DNM=<nm> -DOBJ=<bundle.o> -DEXPECTED=<symbol;symbol;...> -P check-exports.cmake
execute_process(COMMAND ${NM} -g --defined-only ${OBJ} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "${NM} could not read ${OBJ}")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${out}")
set(names)
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^[0-9a-fA-F]* *[A-Za-z] " "" name "${line}")
  list(APPEND names "${name}")
endforeach()
list(SORT names)
set(expected ${EXPECTED})
list(SORT expected)
if(NOT names STREQUAL expected)
  message(FATAL_ERROR "${OBJ} defines the global symbols [${names}]; expected exactly [${expected}]")
endif()
message(STATUS "${OBJ}: exports ${names}")
