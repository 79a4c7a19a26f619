#!/usr/bin/env bash
# Glow's examples/bundles/bundle_tflite_custom, its command line from its CMakeLists.txt with only
# the tool's path changed: gen-tflite-custom.py's model (a CUSTOM operator "MyCustomOperator" with
# FlexBuffer options, then an ADD of its output) compiled with -g, static API, network "model".
# Checks: the header declares glow_tflite_custom_operator with Glow's signature, and compiles as C;
# the object calls it; our client (clients/bundle-tflite-custom.cpp) implements it, finds the custom
# code, the options byte for byte, the operand counts, sizes, places and input values right, and
# its outputs reach the model's output through the bundle's ADD, on two inputs. Then the tools
# that run the reference interpreter refuse the model, saying why, and
# -tflite-enable-custom-operator=false refuses it as an unsupported operator.
#   bundle-tflite-custom.sh <model-compiler> <model-profiler> <generated dir> <work dir>
set -euo pipefail
source "$(dirname "$0")/common.sh"
model_compiler=$(abspath "$1") model_profiler=$(abspath "$2") gen=$(abspath "$3") work=$(abspath "$4")

# The CMake variables of Glow's bundle_tflite_custom/CMakeLists.txt.
GLOW_BINARY_DIR=$work
CMAKE_RUNTIME_OUTPUT_DIRECTORY=${GLOW_BINARY_DIR}/bundles
BUNDLE_OUTPUT_DIRECTORY=${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/bundle_tflite_custom
CMAKE_CURRENT_SOURCE_DIR=$gen/tflite_custom

rm -rf "$work"
mkdir -p "$BUNDLE_OUTPUT_DIRECTORY"
cd "$work"

step "bundle" \
  "$model_compiler" \
    -g \
    -model=${CMAKE_CURRENT_SOURCE_DIR}/tflite_custom.tflite \
    -network-name=model \
    -backend=CPU \
    -emit-bundle=${BUNDLE_OUTPUT_DIRECTORY} \
    -bundle-api=static

header=$BUNDLE_OUTPUT_DIRECTORY/model.h
decl='void glow_tflite_custom_operator(const char *type, const uint8_t *optsAddr, int optsSize, int opInp, int opOut, uint8_t **opAddr, int *opSize);'
grep -qxF "$decl" "$header" || { echo "FAIL: $header does not declare: $decl"; exit 1; }
echo "model.h declares glow_tflite_custom_operator"
printf '#include "model.h"\n' >header-check.c
step "model.h as C" "$CC" -std=c11 -Wall -Wextra -Werror -c -I"$BUNDLE_OUTPUT_DIRECTORY" -o header-check.o header-check.c
nm "$BUNDLE_OUTPUT_DIRECTORY/model.o" | grep -q ' U glow_tflite_custom_operator$' ||
  { echo "FAIL: model.o does not call glow_tflite_custom_operator"; exit 1; }

build_client "$BUNDLE_OUTPUT_DIRECTORY/BundleTFLiteCustom" "$BUNDLE_OUTPUT_DIRECTORY" bundle-tflite-custom.cpp \
  "$BUNDLE_OUTPUT_DIRECTORY/model.o"
out=$("$BUNDLE_OUTPUT_DIRECTORY/BundleTFLiteCustom" "$CMAKE_CURRENT_SOURCE_DIR/options.bin" 1.5 -2) ||
  { echo "$out"; echo "FAIL: the client found errors in the custom operator's call"; exit 1; }
echo "$out"
[ "$(grep -c '^custom operator: type MyCustomOperator, 43 option bytes, 2 inputs, 2 outputs$' <<<"$out")" = 2 ] ||
  { echo "FAIL: the custom operator was not called once per run"; exit 1; }
grep -qx 'input 1.5: output 12.5 25 35.5' <<<"$out" || { echo "FAIL: output for 1.5"; exit 1; }
grep -qx 'input -2: output 9 18 25' <<<"$out" || { echo "FAIL: output for -2"; exit 1; }

# The reference interpreter cannot run it: model-profiler says so, naming the operator.
mkdir -p dataset
cp "$CMAKE_CURRENT_SOURCE_DIR/input.npy" dataset/
if "$model_profiler" -model=${CMAKE_CURRENT_SOURCE_DIR}/tflite_custom.tflite -dump-profile=profile.yaml \
    -input-dataset=input,rawbin,dataset >profiler.log 2>&1; then
  cat profiler.log
  echo "FAIL: model-profiler profiled a model with a custom operator"
  exit 1
fi
cat profiler.log
grep -q "custom_out (TFLiteCustomOperator): error: the bundle's caller computes this op" profiler.log ||
  { echo "FAIL: model-profiler did not say why it cannot run the custom operator"; exit 1; }

# -tflite-enable-custom-operator=false: an unsupported operator, named.
if "$model_compiler" -model=${CMAKE_CURRENT_SOURCE_DIR}/tflite_custom.tflite -network-name=model \
    -emit-bundle=off -tflite-enable-custom-operator=false >off.log 2>&1; then
  echo "FAIL: -tflite-enable-custom-operator=false compiled the custom operator"
  exit 1
fi
cat off.log
grep -q "1 unsupported TFLite operator: MyCustomOperator (custom) (operator 0)" off.log ||
  { echo "FAIL: -tflite-enable-custom-operator=false did not list the custom operator as unsupported"; exit 1; }
[ ! -e off ] || { echo "FAIL: a failed compile left its -emit-bundle folder"; exit 1; }

# Two entries with custom operators in one bundle (-entry): the header declares the callback once.
"$model_compiler" -entry=first,${CMAKE_CURRENT_SOURCE_DIR}/tflite_custom.tflite \
  -entry=second,${CMAKE_CURRENT_SOURCE_DIR}/tflite_custom_second.tflite -network-name=two -emit-bundle=two
[ "$(grep -c '^void glow_tflite_custom_operator(const char \*type' two/two.h)" = 1 ] ||
  { echo "FAIL: the header of a bundle of two entries does not declare glow_tflite_custom_operator once"; exit 1; }
# The same model twice: its tensor names clash, and the message fits a .tflite model.
if "$model_compiler" -entry=first,${CMAKE_CURRENT_SOURCE_DIR}/tflite_custom.tflite \
    -entry=again,${CMAKE_CURRENT_SOURCE_DIR}/tflite_custom.tflite -network-name=clash -emit-bundle=clash >clash.log 2>&1; then
  echo "FAIL: two entries with the same tensor names compiled"
  exit 1
fi
grep -q "'input' is an input of entry 'again' and an input of entry 'first'.*a .tflite model's tensor names" clash.log ||
  { cat clash.log; echo "FAIL: the name clash of two .tflite entries was not explained"; exit 1; }

# glowc-run has no callback to give the bundle: it says so and what to do instead.
glowc_run=$(dirname "$model_compiler")/glowc-run
"$model_compiler" -model=${CMAKE_CURRENT_SOURCE_DIR}/tflite_custom.tflite -network-name=dyn -emit-bundle=dyn \
  -bundle-api=dynamic
if "$glowc_run" -bundle=dyn/dyn.o -input=input=dataset/input.npy >run.log 2>&1; then
  echo "FAIL: glowc-run ran a bundle whose custom operator nothing defines"
  exit 1
fi
cat run.log
grep -q "has TFLite custom operators: glowc-run has no callback for them; link the bundle into a program" run.log ||
  { echo "FAIL: glowc-run did not say why a bundle with a custom operator cannot run"; exit 1; }
echo "PASS: bundle_tflite_custom"
