#!/usr/bin/env bash
# 32-bit Arm Linux bundles use NEON and the hard-float ABI: the digits model, float and int8, for
# -target=armv7-linux-gnueabihf (the generic baseline) and for Glow's -target=arm -mcpu=cortex-a7,
# each an object whose attributes say NEON and floats in VFP registers (readelf -A), whose float
# steps compute in q registers (.f32 on q) and whose int8 ones widen with NEON's long multiply and
# pairwise adds (vmlal, vmull, vpadal, vaddl, vaddw on 8- and 16-bit lanes).
#   check-neon.sh <model-compiler> <digits.onnx> <digits profile> <work dir>
set -euo pipefail
mc=$1 model=$2 profile=$3 work=$4
for tool in arm-linux-gnueabihf-objdump arm-linux-gnueabihf-readelf; do
  command -v $tool >/dev/null || { echo "skipped: $tool not found (binutils-arm-linux-gnueabihf)"; exit 77; }
done
rm -rf "$work"
mkdir -p "$work"
# <triple>|<cpu or none>|<Tag_Advanced_SIMD_arch>
for spec in "armv7-linux-gnueabihf||NEONv1" "arm|cortex-a7|NEONv1 with Fused-MAC"; do
  IFS='|' read -r triple cpu simd <<<"$spec"
  flags=(-target="$triple")
  [ -z "$cpu" ] || flags+=(-mcpu="$cpu")
  for kind in float int8; do
    out=$work/$kind-${cpu:-generic}
    extra=()
    [ $kind = float ] || extra=(-load-profile="$profile")
    "$mc" -model="$model" -emit-bundle="$out" -network-name=digits "${flags[@]}" "${extra[@]}"
    attrs=$(arm-linux-gnueabihf-readelf -A "$out/digits.o")
    grep -q "Tag_ABI_VFP_args: VFP registers" <<<"$attrs" && grep -q "Tag_Advanced_SIMD_arch: $simd\$" <<<"$attrs" ||
      { echo "FAIL: ${flags[*]} $kind: not NEON ($simd) with the hard-float ABI:"; echo "$attrs"; exit 1; }
    dis=$(arm-linux-gnueabihf-objdump -d "$out/digits.o")
    f32q=$(grep -cP '\tv\w+\.f32\tq\d+' <<<"$dis" || true)
    widen=$(grep -cP '\tv(mlal|mull|padal|addl|addw)\.[su](8|16)\t' <<<"$dis" || true)
    echo "${flags[*]} $kind: $simd, VFP registers; $f32q float instructions on q registers, $widen widening NEON"
    if [ $kind = float ]; then
      [ "$f32q" -ge 50 ] || { echo "FAIL: ${flags[*]} float: its steps are not in NEON q registers"; exit 1; }
    else
      [ "$widen" -ge 10 ] || { echo "FAIL: ${flags[*]} int8: no NEON widening multiply-add"; exit 1; }
    fi
  done
done
