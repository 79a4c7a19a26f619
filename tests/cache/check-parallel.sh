#!/usr/bin/env bash
# Concurrent compiles into one output folder and one cache folder, as `ninja -j20` over many
# bundles does: each round starts 20 model-compilers at once (10 bundles, each compiled by two
# of them at the same moment), all with -cache-dir on the same folder; every round, every file
# must be byte-identical to a serial compile, and no temporary file may be left in either folder.
# Odd rounds start from an empty cache (20 writers), even rounds read it (hits).
#   check-parallel.sh <model-compiler> <model.onnx> [rounds (default 50)]
set -u
mc=$1 model=$2 rounds=${3:-50}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/serial" "$work/out"
names=(net0 net1 net2 net3 net4 net5 net6 net7 net8 net9)
for n in "${names[@]}"; do
  "$mc" -model="$model" -emit-bundle="$work/serial" -network-name="$n" -mcpu=baseline || { echo "FAIL: serial compile of $n"; exit 1; }
done
expected=$(cd "$work/serial" && ls | sort)
start=$(date +%s)
for ((r = 1; r <= rounds; r++)); do
  ((r % 2)) && rm -rf "$work/cache"
  pids=()
  for n in "${names[@]}" "${names[@]}"; do
    "$mc" -model="$model" -emit-bundle="$work/out" -network-name="$n" -mcpu=baseline -cache-dir="$work/cache" \
      2>>"$work/errors" &
    pids+=($!)
  done
  failed=0
  for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
  [ $failed = 0 ] || { echo "FAIL: round $r: $failed of 20 compiles failed:"; cat "$work/errors"; exit 1; }
  got=$(cd "$work/out" && ls -A | sort)
  [ "$got" = "$expected" ] || { echo "FAIL: round $r: the folder holds"; echo "$got"; echo "want"; echo "$expected"; exit 1; }
  for f in $expected; do
    cmp -s "$work/serial/$f" "$work/out/$f" || { echo "FAIL: round $r: $f differs from the serial compile"; exit 1; }
  done
  stray=$(find "$work/cache" -type f -name '*tmp*' -o -type f -name '.*' | head -3)
  [ -z "$stray" ] || { echo "FAIL: round $r: temporary files left in the cache: $stray"; exit 1; }
  rm -rf "$work/out"/*
done
entries=$(find "$work/cache" -mindepth 2 -type f | wc -l)
echo "ok: $rounds rounds of 20 concurrent compiles (10 bundles, 2 compiles each, one cache of $entries files):" \
     "every file the same bytes as serially, nothing torn or left over ($(( $(date +%s) - start )) s)"
