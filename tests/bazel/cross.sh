#!/usr/bin/env bash
# Cross builds with Bazel (issue 4): the digits example built with .bazelrc's --config=<cpu>
# (the platforms and cross gcc toolchains of toolchains/BUILD), its bundle object and program
# checked to be of that architecture, the program run under qemu-user with its weights and its
# predictions checked against examples/digits/expected.txt. A CPU whose cross gcc, libc or qemu
# is missing is skipped; when every one is, the test is (exit 77, ctest's SKIP_RETURN_CODE).
#   cross.sh [source-dir [cpu...]]    (cpus: aarch64 riscv64, the default)
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/tests/bazel/common.sh"
trap 'bz shutdown >/dev/null 2>&1 || true' EXIT
cd "$src"
cpus=("${@:2}")
[ ${#cpus[@]} -gt 0 ] || cpus=(aarch64 riscv64)

ran=0
for cpu in "${cpus[@]}"; do
  triple=$cpu-linux-gnu
  case $cpu in
    aarch64) elf="ELF 64-bit LSB .*ARM aarch64" ;;
    riscv64) elf="ELF 64-bit LSB .*RISC-V" ;;
    *) echo "cross.sh: no check for CPU '$cpu' (aarch64, riscv64)" >&2; exit 1 ;;
  esac
  missing=()
  for tool in "qemu-$cpu" file; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  # Where toolchains/linux_gcc.bzl expects them.
  for f in "/usr/bin/$triple-gcc" "/usr/$triple/include/stdio.h"; do
    [ -e "$f" ] || missing+=("$f")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "$cpu: skipped (missing: ${missing[*]})"
    continue
  fi

  bz build "${bz_build_flags[@]}" --config="$cpu" //examples/digits:digits-classify
  bin=$(bz info "${bz_build_flags[@]}" --config="$cpu" bazel-bin)/examples/digits
  for f in digits_bundle.bundle/digits.o digits-classify; do
    if ! file -b "$bin/$f" | grep -q "$elf"; then
      echo "$cpu: $f is not a $cpu ELF: $(file -b "$bin/$f")" >&2
      exit 1
    fi
  done
  out=$("qemu-$cpu" -L "/usr/$triple" "$bin/digits-classify" "$bin/digits_bundle.bundle/digits.weights.bin")
  result=$(check_predictions "$out" "$src/examples/digits/expected.txt")
  echo "$cpu (qemu-$cpu): $result"
  ran=$((ran + 1))
done
if [ "$ran" -eq 0 ]; then
  echo "skipped: no CPU with its cross gcc and qemu"
  exit 77
fi
