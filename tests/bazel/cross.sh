#!/usr/bin/env bash
# Cross builds with Bazel (issues 4 and 27): the digits example built with .bazelrc's
# --config=<platform> (the platforms and cross gcc toolchains of toolchains/BUILD).
# * Linux (aarch64, riscv64, armv7): the bundle object and program checked to be of that
#   architecture, the program run under qemu-user with its weights and its predictions checked
#   against examples/digits/expected.txt (armv7: the int8 bundle too, and both objects' Arm
#   attributes: Armv7 with NEON, floats passed in VFP registers).
# * Bare-metal Cortex-M (cortex-m0, -m4, -m7, -m33, -m55): the float and int8 bundles, their
#   objects' Arm attributes (the core's architecture and float ABI), and a program linking the
#   float bundle against newlib (tests/integration:embedded-weights with newlib's system-call
#   stubs): it links only with the core's multilib, and its attributes are the core's too (a
#   newlib of a later architecture would raise them). Running them is tests/cortex-m's part.
# A platform whose cross gcc, C library or qemu is missing is skipped; when every one is, the
# test is (exit 77, ctest's SKIP_RETURN_CODE).
#   cross.sh [source-dir [platform...]]    (default: all of them)
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/tests/bazel/common.sh"
trap 'bz shutdown >/dev/null 2>&1 || true' EXIT
cd "$src"
cpus=("${@:2}")
[ ${#cpus[@]} -gt 0 ] || cpus=(aarch64 riscv64 armv7 cortex-m0 cortex-m4 cortex-m7 cortex-m33 cortex-m55)

# has_attrs <what> <file> <readelf -A line>...: each line is in the file's Arm attributes.
has_attrs() {
  local what=$1 file=$2 attrs want
  attrs=$(readelf -A "$file")
  shift 2
  for want in "$@"; do
    if ! grep -qxF "  $want" <<<"$attrs"; then
      echo "$what: $(basename "$file") lacks '$want'; its attributes:" >&2
      echo "$attrs" >&2
      return 1
    fi
  done
}
# no_attr <what> <file> <tag>: the file has no such attribute (soft float: no Tag_ABI_VFP_args).
no_attr() {
  if readelf -A "$2" | grep -q "^  $3:"; then
    echo "$1: $(basename "$2") has $(readelf -A "$2" | grep "^  $3:")" >&2
    return 1
  fi
}

# linux <cpu>: build, check and run digits-classify for a Linux platform.
linux() {
  local cpu=$1 gnu=$1-linux-gnu qemu=qemu-$1 elf attrs=() bundles=(digits_bundle) bin b
  case $cpu in
    aarch64) elf="ELF 64-bit LSB .*ARM aarch64" ;;
    riscv64) elf="ELF 64-bit LSB .*RISC-V" ;;
    armv7)
      gnu=arm-linux-gnueabihf qemu=qemu-arm elf="ELF 32-bit LSB .*ARM, EABI5"
      # The ARM ABI addenda's names: Armv7, NEON (Advanced SIMD v1), hard float.
      attrs=("Tag_CPU_arch: v7" "Tag_CPU_arch_profile: Application" "Tag_Advanced_SIMD_arch: NEONv1"
        "Tag_ABI_VFP_args: VFP registers")
      bundles+=(digits_int8)
      ;;
  esac
  missing=()
  for tool in "$qemu" file readelf; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  # Where toolchains/linux_gcc.bzl expects them.
  for f in "/usr/bin/$gnu-gcc" "/usr/$gnu/include/stdio.h"; do
    [ -e "$f" ] || missing+=("$f")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "$cpu: skipped (missing: ${missing[*]})"
    return 0
  fi

  local targets=(//examples/digits:digits-classify)
  [ ${#bundles[@]} -eq 1 ] || targets+=(//examples/digits:digits-classify-int8)
  bz build "${bz_build_flags[@]}" --config="$cpu" "${targets[@]}"
  bin=$(bz info "${bz_build_flags[@]}" --config="$cpu" bazel-bin)/examples/digits
  for f in digits_bundle.bundle/digits.o digits-classify; do
    if ! file -b "$bin/$f" | grep -q "$elf"; then
      echo "$cpu: $f is not a $cpu ELF: $(file -b "$bin/$f")" >&2
      exit 1
    fi
  done
  for b in "${bundles[@]}"; do
    [ ${#attrs[@]} -eq 0 ] || has_attrs "$cpu" "$bin/$b.bundle/digits.o" "${attrs[@]}"
  done
  [ ${#attrs[@]} -eq 0 ] || has_attrs "$cpu" "$bin/digits-classify" "${attrs[@]}"
  out=$("$qemu" -L "/usr/$gnu" "$bin/digits-classify" "$bin/digits_bundle.bundle/digits.weights.bin")
  result=$(check_predictions "$out" "$src/examples/digits/expected.txt")
  echo "$cpu ($qemu): $result"
  if [ ${#bundles[@]} -gt 1 ]; then
    out=$("$qemu" -L "/usr/$gnu" "$bin/digits-classify-int8" "$bin/digits_int8.bundle/digits.weights.bin")
    result=$(check_predictions "$out" "$src/examples/digits/expected.txt")
    echo "$cpu ($qemu), int8: $result"
  fi
  ran=$((ran + 1))
}

# cortex_m <core>: build the bundles and the linked program for a Cortex-M platform and check
# their attributes.
cortex_m() {
  local core=$1 attrs cpu_attrs obj_attrs=() bin b
  # The ARM ABI addenda's names for each core's architecture and its floating point.
  case $core in
    cortex-m0) cpu_attrs=("Tag_CPU_arch: v6S-M" "Tag_THUMB_ISA_use: Thumb-1") ;;
    cortex-m4) cpu_attrs=("Tag_CPU_arch: v7E-M" "Tag_FP_arch: VFPv4-D16" "Tag_ABI_VFP_args: VFP registers") ;;
    cortex-m7) cpu_attrs=("Tag_CPU_arch: v7E-M" "Tag_FP_arch: FPv5/FP-D16 for ARMv8" "Tag_ABI_VFP_args: VFP registers") ;;
    cortex-m33)
      cpu_attrs=("Tag_CPU_arch: v8-M.mainline" "Tag_FP_arch: FPv5/FP-D16 for ARMv8" "Tag_ABI_VFP_args: VFP registers")
      obj_attrs=("Tag_DSP_extension: Allowed")
      ;;
    cortex-m55)
      cpu_attrs=("Tag_CPU_arch: v8.1-M.mainline" "Tag_FP_arch: FPv5/FP-D16 for ARMv8"
        "Tag_ABI_VFP_args: VFP registers")
      obj_attrs=("Tag_MVE_arch: MVE Integer and FP")
      ;;
    *) echo "cross.sh: no platform '$core' (aarch64, riscv64, armv7, cortex-m0, -m4, -m7, -m33, -m55)" >&2; exit 1 ;;
  esac
  cpu_attrs+=("Tag_CPU_arch_profile: Microcontroller")
  missing=()
  command -v readelf >/dev/null || missing+=(readelf)
  # Where toolchains/arm_gcc.bzl expects them.
  for f in /usr/bin/arm-none-eabi-gcc /usr/lib/arm-none-eabi/include/stdio.h; do
    [ -e "$f" ] || missing+=("$f")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "$core: skipped (missing: ${missing[*]})"
    return 0
  fi

  # The same --linkopt for every Cortex-M build: each build's options are then the same but for
  # the platform.
  bz build "${bz_build_flags[@]}" --config="$core" --linkopt=--specs=nosys.specs \
    //examples/digits:digits_bundle //examples/digits:digits_int8 //tests/integration:embedded-weights
  bin=$(bz info "${bz_build_flags[@]}" --config="$core" bazel-bin)
  for b in digits_bundle digits_int8; do
    has_attrs "$core" "$bin/examples/digits/$b.bundle/digits.o" "Tag_CPU_name: \"$core\"" "${cpu_attrs[@]}" \
      ${obj_attrs[@]+"${obj_attrs[@]}"}
  done
  has_attrs "$core" "$bin/tests/integration/embedded-weights" "${cpu_attrs[@]}"
  if [ "$core" = cortex-m0 ]; then
    for f in "$bin/examples/digits/digits_bundle.bundle/digits.o" "$bin/tests/integration/embedded-weights"; do
      no_attr "$core" "$f" Tag_ABI_VFP_args
      no_attr "$core" "$f" Tag_FP_arch
    done
  fi
  echo "$core: float and int8 bundles and a program linked with newlib: $(readelf -A "$bin/tests/integration/embedded-weights" |
    grep -E 'Tag_CPU_arch:|Tag_ABI_VFP_args' | sed 's/^ *//' | paste -sd, | sed 's/,/, /g')"
  ran=$((ran + 1))
}

ran=0
for cpu in "${cpus[@]}"; do
  case $cpu in
    aarch64 | riscv64 | armv7) linux "$cpu" ;;
    *) cortex_m "$cpu" ;;
  esac
done
if [ "$ran" -eq 0 ]; then
  echo "skipped: no platform with its cross gcc and qemu"
  exit 77
fi
