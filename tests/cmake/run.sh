#!/usr/bin/env bash
# The CMake package from a user's side (label: integration), on small projects
# in tests/cmake/. Every test but 'install' uses the prefix 'install' fills.
#   run.sh <test> <glowc build dir> <glowc source dir> <work dir>
# install      cmake --install of the build tree into <work>/prefix
# installed    the consumer against the prefix (find_package) builds and predicts right
# subdir       the consumer with add_subdirectory(<glowc source>) builds and predicts right
# incremental  a model edit recompiles exactly one bundle; a no-op build does nothing;
#              a new compiler recompiles both
# determinism  two consumer trees in different folders give byte-identical bundles
# bad-args     wrong add_glow_bundle() calls fail configure, every mistake named
# cross        toolchain files (tests/cmake/cross, toolchains/) and system/processor pairs give
#              their triples: -target=aarch64-linux-gnu, riscv64-linux-gnu, armv7-linux-gnueabihf,
#              thumbv7em-none-eabihf
# cross-unknown  a processor with no known triple is a configure error naming it; TARGET settles it
# cross-installed  the consumer (bundle + runtime) cross-built for AArch64 with the installed
#              toolchain file against the installed prefix, run under qemu (exit 77: skipped);
#              its CUDA program too (host code for AArch64), which must say there is no GPU
# cross-installed-armv7  the same for 32-bit Arm Linux (arm-linux-gnueabihf.cmake, qemu-arm), with
#              the int8 bundle too (glow_profile() on the host); no CUDA program (no 32-bit host)
# profile-incremental  glow_profile(): editing or adding a calibration file re-profiles and
#              recompiles the int8 bundle only; a no-op build does nothing
# cache        with GLOWC_CACHE_DIR set, a second clean build compiles no bundle (all cache hits)
# plugins      the two example graph-pass plugins build on their own against the prefix
#              (find_package); a project's plugin targets in add_glow_bundle(PASS_PLUGINS, PASSES)
#              and glow_profile() change its bundle (2 layer norms fused) and run in order
# tflite       a .tflite MODEL (tests/tflite-model/make-model.py's) in add_glow_bundle() and
#              glow_profile(): float and int8 programs print y as numpy computes it; touching the
#              model re-profiles and recompiles both bundles (exit 77 without flatc: skipped)
set -euo pipefail
test=$1 build=$2 src=$3 work=$4
prefix=$work/prefix
digits=$src/examples/digits
here=$src/tests/cmake
check() { cmake -DEXE="$1" -DWEIGHTS="$2" -DEXPECTED="$digits/expected.txt" -P "$digits/check-predictions.cmake"; }
check_cuda() { # <classify-cuda> <weights>: predicts right on a GPU; without one, exits 1 saying why
  local out
  if out=$("$1" "$2" 2>&1); then
    check "$1" "$2"
  elif grep -Eq "no CUDA driver|toolkit's stub|sees no GPU" <<<"$out"; then
    echo "$(basename "$1") built; not run (no GPU here): $out"
  else
    echo "$1 failed: $out"
    exit 1
  fi
}
configure() { # <tree> [cmake args...]
  local tree=$1; shift
  rm -rf "$tree"
  mkdir -p "$(dirname "$tree")"
  cmake -S "$here/consumer" -B "$tree" -G Ninja -DDIGITS_DIR="$digits" "$@" >"$tree.log" 2>&1 || { cat "$tree.log"; exit 1; }
}

cross_configure() { # <toolchain file or system:processor> [cmake args...]: the cross project, configured only
  # in $work/$test (cross and cross-unknown run side by side under ctest -j: one tree each)
  local how=$1 tree=$work/$test; shift
  if [[ $how == *:* ]]; then
    set -- -DCMAKE_SYSTEM_NAME="${how%:*}" -DCMAKE_SYSTEM_PROCESSOR="${how#*:}" "$@"
  else
    set -- -DCMAKE_TOOLCHAIN_FILE="$how" "$@"
  fi
  rm -rf "$tree"
  cmake -S "$here/cross" -B "$tree" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
        -DDIGITS_DIR="$digits" "$@" >"$tree.log" 2>&1
}

case $test in
install)
  rm -rf "$prefix"
  cmake --install "$build" --prefix "$prefix" >/dev/null
  for f in bin/model-compiler bin/glowc bin/model-profiler bin/glowc-run bin/image-classifier include/glow-runtime.h \
           include/glowc-pass.h \
           lib/cmake/glowc/glowcConfig.cmake \
           lib/libglowc_runtime_cuda.a share/glowc/runtime/cuda-loader.c \
           share/glowc/runtime/runtime.c share/glowc/toolchains/aarch64-linux-gnu.cmake \
           lib/cmake/glowc/glowcConfigVersion.cmake lib/cmake/glowc/GlowBundle.cmake; do
    [ -e "$prefix/$f" ] || { echo "not installed: $f"; exit 1; }
  done ;;
plugins)
  for ex in fuse-layernorm summary; do # each example on its own, as a user builds a plugin
    tree=$work/plugin-$ex
    rm -rf "$tree"
    cmake -S "$src/examples/pass-$ex" -B "$tree" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >"$tree.log" 2>&1 || { cat "$tree.log"; exit 1; }
    cmake --build "$tree" >>"$tree.log" 2>&1 || { cat "$tree.log"; exit 1; }
    [ -f "$tree/libglowc-pass-$ex.so" ] || { echo "no $tree/libglowc-pass-$ex.so"; exit 1; }
  done
  mkdir -p "$work/plugin-out"
  msg=$("$prefix/bin/model-compiler" -model="$src/examples/pass-fuse-layernorm/layernorm-mlp.onnx" \
        -emit-bundle="$work/plugin-out" -load-pass="$work/plugin-fuse-layernorm/libglowc-pass-fuse-layernorm.so" 2>&1)
  echo "$msg"
  grep -q "fused 2 layer normalizations" <<<"$msg" || { echo "the installed compiler did not run the plugin"; exit 1; }
  tree=$work/plugin-project examples=$work/plugin-examples # a copy: the test edits a plugin source
  rm -rf "$tree" "$examples"
  mkdir -p "$examples"
  cp -r "$src/examples/pass-fuse-layernorm" "$src/examples/pass-summary" "$examples/"
  cmake -S "$here/plugins" -B "$tree" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DEXAMPLES_DIR="$examples" \
    >"$tree.log" 2>&1 || { cat "$tree.log"; exit 1; }
  out=$(cmake --build "$tree" 2>&1) || { echo "$out"; exit 1; }
  echo "$out" | grep -E "pass (fuse-layernorm|summary)"
  # fuse-layernorm then summary, in PASSES order: the summary sees the fused graph
  grep -q "(pass summary):   LayerNormalization *2" <<<"$out" || { echo "summary did not see 2 fused layer norms"; exit 1; }
  cmp -s "$tree/fused.bundle/layernorm_mlp.o" "$tree/plain.bundle/layernorm_mlp.o" && { echo "the plugin did not change the bundle"; exit 1; }
  [ -f "$tree/fused_int8.bundle/layernorm_mlp.o" ] || { echo "no int8 bundle from the plugin's profile"; exit 1; }
  # a rebuilt plugin recompiles the bundles that load it, and only those
  sleep 1
  echo "/* edited */" >>"$examples/pass-summary/summary.c"
  out=$(cmake --build "$tree")
  grep -q "into bundle layernorm_mlp (fused)" <<<"$out" || { echo "a rebuilt plugin did not recompile its bundle:"; echo "$out"; exit 1; }
  grep -q "(plain)" <<<"$out" && { echo "a bundle without the plugin was recompiled"; exit 1; }
  echo "ok: plugins built against the prefix and used by the project" ;;
tflite)
  models=$work/tflite-model tree=$work/tflite
  rc=0
  /usr/bin/python3 "$src/tests/tflite-model/make-model.py" "$(command -v flatc || echo flatc)" \
    "$src/compiler/importer/tflite.fbs" "$models" || rc=$?
  [ $rc = 0 ] || exit $rc
  rm -rf "$tree"
  cmake -S "$here/tflite" -B "$tree" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DTFLITE_DIR="$models" \
    >"$tree.log" 2>&1 || { cat "$tree.log"; exit 1; }
  cmake --build "$tree" >>"$tree.log" 2>&1 || { cat "$tree.log"; exit 1; }
  for prog in "run-tiny tiny 1e-6" "run-tiny-int8 tiny_int8 0.11"; do
    read -r exe bundle tol <<<"$prog"
    got=$("$tree/$exe" "$tree/$bundle.bundle/tiny.weights.bin" $(cat "$models/x.txt"))
    echo "$exe: $got (numpy: $(cat "$models/expected.txt"))"
    /usr/bin/python3 -c 'import sys; g, w = (list(map(float, a.split())) for a in sys.argv[1:3])
sys.exit(not (len(g) == len(w) and max(abs(a - b) for a, b in zip(g, w)) <= float(sys.argv[3])))' \
      "$got" "$(cat "$models/expected.txt")" "$tol" || { echo "$exe: y differs from numpy's"; exit 1; }
  done
  sleep 1
  touch "$models/tiny.tflite"
  out=$(cmake --build "$tree")
  n=$(grep -c 'into bundle' <<<"$out" || true)
  [ "$n" = 2 ] && grep -q 'Profiling' <<<"$out" ||
    { echo "touching the model did not re-profile and recompile both bundles:"; echo "$out"; exit 1; }
  echo "ok: .tflite bundles built, run and rebuilt" ;;
cache)
  cache=$work/compile-cache
  rm -rf "$cache"
  for tree in cache-a cache-b; do
    configure "$work/$tree" -DCMAKE_PREFIX_PATH="$prefix" -DBUNDLE_OPTIONS=-verbose
    start=$(date +%s.%N)
    out=$(GLOWC_CACHE_DIR=$cache cmake --build "$work/$tree" 2>&1)
    echo "$tree: clean build $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}') s"
    grep 'glowc: cache' <<<"$out" || true
  done
  grep -q "glowc: cache miss" <<<"$out" && { echo "second clean build missed the cache"; exit 1; }
  grep -q 'glowc: cache hit' <<<"$out" || { echo "second clean build did not hit the cache:"; echo "$out"; exit 1; }
  grep -q 'glowc: time:' <<<"$out" && { echo "second clean build compiled a bundle"; exit 1; }
  cmp "$work/cache-a/digits.bundle/digits.o" "$work/cache-b/digits.bundle/digits.o"
  check "$work/cache-b/classify" "$work/cache-b/digits.bundle/digits.weights.bin" ;;
installed)
  configure "$work/installed" -DCMAKE_PREFIX_PATH="$prefix"
  cmake --build "$work/installed"
  check "$work/installed/classify" "$work/installed/digits.bundle/digits.weights.bin"
  check "$work/installed/classify-zst" "$work/installed/digits_zst.bundle/digits.weights.zst"
  check_cuda "$work/installed/classify-cuda" "$work/installed/digits_cuda.bundle/digits.weights.bin" ;;
subdir)
  configure "$work/subdir" -DGLOWC_SOURCE_DIR="$src"
  cmake --build "$work/subdir" --target classify classify-zst classify-cuda
  check "$work/subdir/classify" "$work/subdir/digits.bundle/digits.weights.bin"
  check "$work/subdir/classify-zst" "$work/subdir/digits_zst.bundle/digits.weights.zst"
  check_cuda "$work/subdir/classify-cuda" "$work/subdir/digits_cuda.bundle/digits.weights.bin" ;;
incremental)
  # A prefix of its own: the compiler update below (a touch) must not reach the tests that
  # share $prefix while this one runs (profile-incremental counts its recompiles).
  tree=$work/incremental own=$work/incremental-prefix
  mkdir -p "$work"
  rm -rf "$own"
  cp -a "$prefix" "$own"
  cp "$digits/digits.onnx" "$work/second.onnx"
  configure "$tree" -DCMAKE_PREFIX_PATH="$own" -DSECOND_MODEL="$work/second.onnx"
  all=$(cmake --build "$tree" | grep -c 'into bundle' || true) # every bundle of the project
  # An edit that keeps the model valid ONNX: append ModelProto.doc_string (field 6,
  # length-delimited, tag 0x32) = "edited"; protobuf takes the last value.
  sleep 1
  printf '\x32\x06edited' >>"$work/second.onnx"
  out=$(cmake --build "$tree")
  echo "$out"
  n=$(grep -c 'into bundle' <<<"$out" || true)
  [ "$n" = 1 ] || { echo "expected exactly one bundle compile after the edit, got $n"; exit 1; }
  grep -q 'into bundle second' <<<"$out" || { echo "the edited model's bundle was not the one rebuilt"; exit 1; }
  out=$(cmake --build "$tree")
  grep -q 'no work to do' <<<"$out" || { echo "a no-op build did work:"; echo "$out"; exit 1; }
  # A new compiler recompiles every bundle.
  sleep 1
  touch "$own/bin/model-compiler"
  n=$(cmake --build "$tree" | grep -c 'into bundle' || true)
  [ "$n" = "$all" ] && [ "$n" -ge 2 ] ||
    { echo "expected all $all bundles recompiled after a compiler update, got $n"; exit 1; }
  check "$tree/classify" "$tree/digits.bundle/digits.weights.bin" ;;
determinism)
  for t in a/one b/nested/two; do
    configure "$work/det/$t" -DCMAKE_PREFIX_PATH="$prefix"
    cmake --build "$work/det/$t" --target digits.compile >/dev/null
  done
  for f in digits.o digits.h digits.weights.bin; do
    cmp "$work/det/a/one/digits.bundle/$f" "$work/det/b/nested/two/digits.bundle/$f"
  done
  echo "bundles byte-identical across build trees" ;;
bad-args)
  tree=$work/bad-args
  rm -rf "$tree"
  if cmake -S "$here/bad-args" -B "$tree" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >"$tree.log" 2>&1; then
    echo "configure succeeded with wrong arguments"; exit 1
  fi
  for want in "BUNDLE_API must be static or dynamic" "WEIGHTS must be bin, txt, zst or embedded" \
              "MODEL <file.onnx or .tflite> is required" "NETWORK_NAME '1x' is not a C identifier" \
              "WEIGHTS txt needs BUNDLE_API static" "MODEL_INPUTS: 'input,float' is not" \
              "RAM_SIZE '12Q' is not a size of memory" "FLASH_SIZE '-1M' is not a size of memory"; do
    grep -qF "$want" "$tree.log" || { cat "$tree.log"; echo "missing: $want"; exit 1; }
  done ;;
cross)
  # <toolchain file or system:processor> <triple add_glow_bundle() must pass>
  for spec in "$here/cross/aarch64.cmake aarch64-linux-gnu" \
              "$src/toolchains/aarch64-linux-gnu.cmake aarch64-linux-gnu" \
              "$src/toolchains/riscv64-linux-gnu.cmake riscv64-linux-gnu" \
              "$src/toolchains/arm-linux-gnueabihf.cmake armv7-linux-gnueabihf" \
              "Linux:arm armv7-linux-gnueabihf" \
              "Linux:arm64 aarch64-linux-gnu" "Linux:riscv64 riscv64-linux-gnu" \
              "Generic:cortex-m4 thumbv7em-none-eabihf" "Generic:cortex-m7 thumbv7em-none-eabihf" \
              "Generic:armv7e-m thumbv7em-none-eabihf" "Generic:arm thumbv7em-none-eabihf" \
              "Generic:cortex-m0 thumbv6m-none-eabi" "Generic:cortex-m0plus thumbv6m-none-eabi" \
              "Generic:cortex-m33 thumbv8m.main-none-eabihf" "Generic:cortex-m55 thumbv8.1m.main-none-eabihf" \
              "Linux:armv7l armv7-linux-gnueabihf"; do
    read -r how want <<<"$spec"
    cross_configure "$how" || { cat "$work/$test.log"; exit 1; }
    line=$(ninja -C "$work/$test" -t commands bundle | grep -- '-emit-bundle=')
    echo "$how: $line"
    grep -q -- " -target=$want" <<<"$line" || { echo "$how: no -target=$want"; exit 1; }
  done ;;
cross-installed)
  for tool in aarch64-linux-gnu-gcc qemu-aarch64; do
    command -v $tool >/dev/null || { echo "skipped: $tool not found"; exit 77; }
  done
  tree=$work/cross-installed
  configure "$tree" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_TOOLCHAIN_FILE="$prefix/share/glowc/toolchains/aarch64-linux-gnu.cmake"
  cmake --build "$tree"
  file "$tree/classify" | grep -q "ARM aarch64" || { file "$tree/classify"; exit 1; }
  printf '#!/bin/sh\nexec qemu-aarch64 -L /usr/aarch64-linux-gnu "%s" "$@"\n' "$tree/classify" >"$tree/run-classify"
  chmod +x "$tree/run-classify"
  check "$tree/run-classify" "$tree/digits.bundle/digits.weights.bin"
  # The CUDA bundle's host code for AArch64 (-cuda-host=aarch64-linux-gnu): under qemu, no GPU.
  file "$tree/classify-cuda" | grep -q "ARM aarch64" || { file "$tree/classify-cuda"; exit 1; }
  printf '#!/bin/sh\nexec qemu-aarch64 -L /usr/aarch64-linux-gnu "%s" "$@"\n' "$tree/classify-cuda" >"$tree/run-classify-cuda"
  chmod +x "$tree/run-classify-cuda"
  check_cuda "$tree/run-classify-cuda" "$tree/digits_cuda.bundle/digits.weights.bin" ;;
cross-installed-armv7)
  for tool in arm-linux-gnueabihf-gcc qemu-arm; do
    command -v $tool >/dev/null || { echo "skipped: $tool not found"; exit 77; }
  done
  tree=$work/cross-installed-armv7
  configure "$tree" -DCMAKE_PREFIX_PATH="$prefix" -DCALIBRATION_DIR="$digits/calibration" \
    -DCMAKE_TOOLCHAIN_FILE="$prefix/share/glowc/toolchains/arm-linux-gnueabihf.cmake"
  cmake --build "$tree"
  ninja -C "$tree" -t commands digits.compile | grep -q -- ' -target=armv7-linux-gnueabihf' ||
    { echo "digits: not compiled for armv7-linux-gnueabihf"; exit 1; }
  [ ! -e "$tree/classify-cuda" ] || { echo "a CUDA program was built for 32-bit Arm"; exit 1; }
  for exe in classify classify-int8; do
    file "$tree/$exe" | grep -q "ELF 32-bit LSB.*ARM, EABI5" || { file "$tree/$exe"; exit 1; }
    printf '#!/bin/sh\nexec qemu-arm -L /usr/arm-linux-gnueabihf "%s" "$@"\n' "$tree/$exe" >"$tree/run-$exe"
    chmod +x "$tree/run-$exe"
  done
  check "$tree/run-classify" "$tree/digits.bundle/digits.weights.bin"
  check "$tree/run-classify-int8" "$tree/digits_int8.bundle/digits.weights.bin" ;;
profile-incremental)
  tree=$work/profile-incremental
  rm -rf "$work/calibration"
  mkdir -p "$work"
  cp -r "$digits/calibration" "$work/calibration"
  configure "$tree" -DCMAKE_PREFIX_PATH="$prefix" -DCALIBRATION_DIR="$work/calibration"
  cmake --build "$tree" >/dev/null
  check "$tree/classify-int8" "$tree/digits_int8.bundle/digits.weights.bin"
  out=$(cmake --build "$tree")
  grep -q 'no work to do' <<<"$out" || { echo "a no-op build did work:"; echo "$out"; exit 1; }
  for edit in "cp $work/calibration/0001.bin $work/calibration/0000.bin" \
              "cp $work/calibration/0002.bin $work/calibration/extra.bin"; do
    sleep 1
    $edit
    out=$(cmake --build "$tree")
    echo "after '$edit':"; echo "$out"
    grep -q 'Profiling' <<<"$out" || { echo "no re-profile after '$edit'"; exit 1; }
    n=$(grep -c 'into bundle' <<<"$out" || true)
    [ "$n" = 1 ] && grep -q 'into bundle digits (digits_int8)' <<<"$out" ||
      { echo "expected exactly the int8 bundle recompiled after '$edit', got $n compiles"; exit 1; }
  done
  check "$tree/classify-int8" "$tree/digits_int8.bundle/digits.weights.bin" ;;
cross-unknown)
  # A processor with no known triple fails configure, naming it; TARGET settles it.
  # (Linux armv6l: a Raspberry Pi 1 or Zero, Armv6 without NEON; Generic cortex-m3: Armv7-M, no target yet.)
  for how in Linux:mips64 Linux:armv6l Generic:aarch64 Generic:cortex-m3; do
    if cross_configure "$how"; then echo "$how: configure succeeded without a triple"; exit 1; fi
    cat "$work/$test.log"
    msg=$(tr -s ' \n' ' ' <"$work/$test.log") # CMake wraps the message
    grep -qF "CMAKE_SYSTEM_PROCESSOR '${how#*:}' (CMAKE_SYSTEM_NAME '${how%:*}')" <<<"$msg" &&
      grep -qF "Pass TARGET <triple> to add_glow_bundle(), or set CMAKE_C_COMPILER_TARGET" <<<"$msg" ||
      { echo "$how: the error does not name the processor and the way out"; exit 1; }
  done
  cross_configure Linux:mips64 -DBUNDLE_TARGET=mips64-linux-gnu || { cat "$work/$test.log"; exit 1; }
  ninja -C "$work/$test" -t commands bundle | grep -q -- ' -target=mips64-linux-gnu' ||
    { echo "TARGET did not reach the compiler"; exit 1; } ;;
*) echo "run.sh: unknown test '$test'"; exit 2 ;;
esac
