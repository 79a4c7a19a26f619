#!/usr/bin/env bash
# Fails when the source lists in the Bazel BUILD files and in CMake differ:
# compiler/CMakeLists.txt + compiler/ops/sources.cmake vs compiler/BUILD, and
# targets/common/kernels.cmake vs targets/BUILD.
#   check-sources.sh [source-dir]
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
status=0

# Quoted or bare *.c paths outside comments, in file order.
c_files() { sed -e 's/#.*//' "$@" | grep -oE '"?[A-Za-z0-9_./${}-]+\.c"?' | tr -d '"'; }

compare() { # name, cmake list, bazel list
  if ! diff <(echo "$2") <(echo "$3") >/dev/null; then
    echo "check-sources: $1 differs between CMake (<) and Bazel (>):"
    diff <(echo "$2") <(echo "$3") || true
    status=1
  fi
}

cmake_compiler=$(sed -n '/add_library(glowc_compiler/,/^)/p' "$src/compiler/CMakeLists.txt" | c_files /dev/stdin |
  sed 's|^\${proto_out}/|importer/|')
cmake_ops=$(sed -n '/set(GLOWC_OP_SOURCES/,/^)/p' "$src/compiler/ops/sources.cmake" | c_files /dev/stdin)
bazel_compiler=$(sed -n '/name = "glowc_compiler"/,/^)/p' "$src/compiler/BUILD" | sed -n '/srcs = \[/,/^    \],/p' | c_files /dev/stdin)
bazel_ops=$(sed -n '/^GLOWC_OP_SOURCES = \[/,/^\]/p' "$src/compiler/BUILD" | c_files /dev/stdin)
compare "glowc_compiler sources" "$cmake_compiler" "$bazel_compiler"
compare "GLOWC_OP_SOURCES" "$cmake_ops" "$bazel_ops"

cmake_kernels=$(sed -n '/set(GLOWC_KERNEL_SOURCES/,/^)/p' "$src/targets/common/kernels.cmake" | c_files /dev/stdin)
bazel_kernels=$(sed -n '/^GLOWC_KERNEL_SOURCES = \[/,/^\]/p' "$src/targets/BUILD" | c_files /dev/stdin)
compare "GLOWC_KERNEL_SOURCES" "$cmake_kernels" "$bazel_kernels"

# Every add_executable(...) whole, its continuation lines too.
cmake_driver=$(awk '/add_executable\(/ { f = 1 } f { print } f && /\)/ { f = 0 }' "$src/compiler/driver/CMakeLists.txt" |
  c_files /dev/stdin | sort)
bazel_driver=$(c_files "$src/compiler/driver/BUILD" | sort)
compare "driver sources" "$cmake_driver" "$bazel_driver"

[ "$status" -eq 0 ] && echo "check-sources: Bazel and CMake source lists agree"
exit "$status"
