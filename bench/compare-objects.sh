#!/usr/bin/env bash
# Whether a change to the compiler-kernel contract (targets/common/kernel-abi.h)
# changed the code: compiles each model to an object with four sets of options
# (the defaults, -mcpu=x86-64-v3, -mcpu=baseline, -target=aarch64-linux-gnu) and
# records the objects' sha256 (record), or compares them with a record (compare).
#
#   bench/compare-objects.sh record  <build dir> <sums file> <model.onnx>...
#   bench/compare-objects.sh compare <build dir> <sums file> <model.onnx>...
#
# compare prints each object that differs, then "N objects identical / M"; it
# exits 1 when any differs. A model that does not compile records "failed", and
# compares equal only to a failure. Runs JOBS compiles at once (default 1).
set -euo pipefail
[ $# -ge 4 ] || { sed -n 2,11p "$0" >&2; exit 2; }
mode=$1 build=$(cd "$2" && pwd) sums=$3
shift 3
case $mode in record | compare) ;; *) echo "compare-objects.sh: mode must be record or compare, not '$mode'" >&2; exit 2 ;; esac
compiler=$build/compiler/driver/model-compiler
[ -x "$compiler" ] || { echo "compare-objects.sh: $compiler not found: build model-compiler first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One line per object: "<sha256 or failed> <options> <model>".
one() {
  local model=$1 opts=$2 dir
  dir=$(mktemp -d "$work/b.XXXXXX")
  # shellcheck disable=SC2086 # opts is one option or none
  if "$compiler" -model="$model" -emit-bundle="$dir" -network-name=model $opts >/dev/null 2>&1; then
    echo "$(sha256sum <"$dir/model.o" | cut -d' ' -f1) ${opts:--default} $model"
  else
    echo "failed ${opts:--default} $model"
  fi
  rm -rf "$dir"
}
export -f one
export compiler work
for m in "$@"; do
  for o in "" -mcpu=x86-64-v3 -mcpu=baseline -target=aarch64-linux-gnu; do
    printf '%s\0%s\0' "$m" "$o"
  done
done | xargs -0 -n2 -P "${JOBS:-1}" bash -c 'one "$1" "$2"' _ | sort -k3 -k2 >"$work/now"

if [ "$mode" = record ]; then
  cp "$work/now" "$sums"
  echo "recorded $(wc -l <"$sums") objects ($(grep -c '^failed' "$sums" || true) failed to compile) in $sums"
  exit 0
fi
same=$(comm -12 <(sort "$sums") <(sort "$work/now") | wc -l)
total=$(wc -l <"$work/now")
comm -13 <(sort "$sums") <(sort "$work/now") | sed 's/^/differs: /'
echo "$same objects identical / $total"
[ "$same" -eq "$total" ]
