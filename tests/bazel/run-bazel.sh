#!/usr/bin/env bash
# Builds the digits example with Bazel (the toolchain from source, then the bundle
# through glow_bundle) and checks its predictions against examples/digits/expected.txt;
# given the CMake build's bundle folder, also that both bundles are byte-identical; given its
# targets folder too, that every target's kernel bitcode (embedded in the compiler) is.
#   run-bazel.sh [source-dir [cmake-bundle-dir [cmake-targets-dir]]]
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cmake_bundle=${2-}
cmake_targets=${3-}
. "$src/tests/bazel/common.sh"
bz_tmp=$(mktemp -d)
trap 'bz shutdown >/dev/null 2>&1 || true; rm -rf "$bz_tmp"' EXIT
cd "$src"

bz build "${bz_build_flags[@]}" //examples/digits:digits-classify
bin=$(bz info "${bz_build_flags[@]}" bazel-bin)
out=$("$bin/examples/digits/digits-classify" "$bin/examples/digits/digits_bundle.bundle/digits.weights.bin")
check_predictions "$out" "$src/examples/digits/expected.txt"

# No weights argument: the weights are the program's runfiles (glow_bundle's GLOW_RUNFILE_*
# and glow_runfile): through `bazel run`'s variables, from bazel-bin (<program>.runfiles/), with
# only a manifest (RUNFILES_MANIFEST_FILE, as without runfile links), and an error, not a
# crash, where there are none.
check_predictions "$(bz run "${bz_build_flags[@]}" //examples/digits:digits-classify 2>/dev/null)" \
  "$src/examples/digits/expected.txt"
check_predictions "$(env -u RUNFILES_DIR -u RUNFILES_MANIFEST_FILE -u TEST_SRCDIR \
  "$bin/examples/digits/digits-classify")" "$src/examples/digits/expected.txt"
check_predictions "$(cd / && env -u RUNFILES_DIR -u TEST_SRCDIR \
  RUNFILES_MANIFEST_FILE="$bin/examples/digits/digits-classify.runfiles_manifest" \
  "$bin/examples/digits/digits-classify")" "$src/examples/digits/expected.txt"
cp "$bin/examples/digits/digits-classify" "$bz_tmp/digits-classify"
if err=$(env -u RUNFILES_DIR -u RUNFILES_MANIFEST_FILE -u TEST_SRCDIR "$bz_tmp/digits-classify" 2>&1) ||
  ! grep -q "not among the program's runfiles" <<<"$err"; then
  echo "digits-classify without runfiles or a weights argument: $err" >&2
  exit 1
fi
echo "digits-classify finds its weights among its runfiles (bazel run, bazel-bin, a manifest)"

# The int8 variant: profile and bundle made by the build (glow_profile, glow_bundle(profile)).
bz build "${bz_build_flags[@]}" //examples/digits:digits-classify-int8
check_predictions "$("$bin/examples/digits/digits-classify-int8" \
  "$bin/examples/digits/digits_int8.bundle/digits.weights.bin")" "$src/examples/digits/expected.txt"

# The packed variant: glow_bundle(weights = ["zst"]) and //runtime:glowc_runtime_zst.
bz build "${bz_build_flags[@]}" //examples/digits:digits-classify-zst
check_predictions "$("$bin/examples/digits/digits-classify-zst" \
  "$bin/examples/digits/digits_zst.bundle/digits.weights.zst")" "$src/examples/digits/expected.txt"
check_predictions "$(bz run "${bz_build_flags[@]}" //examples/digits:digits-classify-zst 2>/dev/null)" \
  "$src/examples/digits/expected.txt"

# The CUDA variant: glow_bundle(target = "nvptx64-nvidia-cuda"), which brings the runtime's CUDA
# library. On a GPU it must predict as the others; without one, exit 1 saying so.
bz build "${bz_build_flags[@]}" //examples/digits:digits-classify-cuda
if out=$("$bin/examples/digits/digits-classify-cuda" "$bin/examples/digits/digits_cuda.bundle/digits.weights.bin" 2>&1); then
  check_predictions "$out" "$src/examples/digits/expected.txt"
elif grep -Eq "no CUDA driver|toolkit's stub|sees no GPU" <<<"$out"; then
  echo "digits-classify-cuda built; not run (no GPU here): $out"
else
  echo "digits-classify-cuda failed: $out" >&2
  exit 1
fi

# -weights=embedded: no weights file, the entry point called with NULL weights.
bz build "${bz_build_flags[@]}" //tests/integration:embedded-weights
check_predictions "$("$bin/tests/integration/embedded-weights")" "$src/examples/digits/expected.txt"
if ls "$bin/tests/integration/digits_embedded.bundle/" | grep -q weights; then
  echo "glow_bundle(weights = \"embedded\") wrote a weights file" >&2
  exit 1
fi

# A graph-pass plugin built by Bazel (cc_binary linkshared) and loaded by glow_bundle(pass_plugins).
bz build "${bz_build_flags[@]}" //examples/pass-fuse-layernorm:layernorm_mlp_fused

if [ -n "$cmake_bundle" ]; then
  # The plugin built by each, the same bundle.
  for f in layernorm_mlp.o layernorm_mlp.h; do
    cmp "$(dirname "$(dirname "$cmake_bundle")")/pass-fuse-layernorm/layernorm_mlp_fused.bundle/$f" \
        "$bin/examples/pass-fuse-layernorm/layernorm_mlp_fused.bundle/$f"
  done
  for f in digits.o digits.h digits.weights.bin; do
    cmp "$cmake_bundle/$f" "$bin/examples/digits/digits_bundle.bundle/$f"
  done
  # The int8 bundle: the profile made by each build from the same files, then the same bundle.
  for f in digits.o digits.h digits.weights.bin; do
    cmp "$(dirname "$cmake_bundle")/digits_int8.bundle/$f" "$bin/examples/digits/digits_int8.bundle/$f"
  done
  cmp "$(dirname "$cmake_bundle")/digits_profile.yml" "$bin/examples/digits/digits_profile.yml"
  for f in digits.o digits.h digits.weights.zst; do
    cmp "$(dirname "$cmake_bundle")/digits_zst.bundle/$f" "$bin/examples/digits/digits_zst.bundle/$f"
  done
  echo "the Bazel and CMake bundles (float, int8 and packed) and profiles are byte-identical"
fi

if [ -n "$cmake_targets" ]; then
  # The kernel bitcode of every target CMake builds (targets/CMakeLists.txt's GLOWC_TARGETS),
  # as the compiler that built the bundles above (exec configuration) embeds it.
  exec_root=$(bz info "${bz_build_flags[@]}" execution_root)
  bazel_bcs=$(bz cquery "${bz_build_flags[@]}" 'filter("kernels-.*_bc$", deps(//examples/digits:digits_bundle))' \
    --output=starlark --starlark:expr='"\n".join([f.path for f in target.files.to_list()])' 2>/dev/null)
  n=0
  for cmake_bc in "$cmake_targets"/kernels-*.bc; do
    bc=$(grep "/$(basename "$cmake_bc")\$" <<<"$bazel_bcs" || true)
    if [ -z "$bc" ]; then
      echo "Bazel builds no $(basename "$cmake_bc") (targets/BUILD's GLOWC_TARGETS lacks a target of targets/CMakeLists.txt)" >&2
      exit 1
    fi
    if ! cmp "$cmake_bc" "$exec_root/$bc"; then
      echo "$(basename "$cmake_bc") differs between CMake and Bazel: targets/BUILD and the target's target.cmake" \
        "(GLOWC_TARGET_CFLAGS, its own sources) or common/kernels.cmake are out of step" >&2
      exit 1
    fi
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || { echo "no kernel bitcode in $cmake_targets" >&2; exit 1; }
  echo "the kernel bitcode of all $n targets is byte-identical: $(basename -a "$cmake_targets"/kernels-*.bc | sed 's/kernels-//; s/\.bc//' | paste -sd' ')"
fi
