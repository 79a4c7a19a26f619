#!/usr/bin/env bash
# Eviction under load: for about `seconds` (two rounds at least), rounds of 20 model-compilers
# started at once (4 bundles, five compiles each) on one cache bounded by -cache-max-size to 4.5
# entries, while a loop prunes it to two entries or clears it with glowc-cache, then puts the
# entries back as a store puts them (a copy renamed into place), twice a second, so that most
# compiles read (a miss costs a compile). Every compile must succeed with files byte-identical to a
# first, serial compile (a reader never loses an entry it opened; a miss compiles); afterwards every
# entry must check out (none torn), no temporary file may be left, and the counters must add up (a
# hit or a miss per compile). Time-bounded, as a loaded machine runs fewer rounds.
#   check-cache-prune.sh <model-compiler> <glowc-cache> <model.onnx> [seconds (default 15)]
set -u
mc=$1 gc=$2 model=$3 seconds=${4:-15}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cache=$work/cache
names=(net0 net1 net2 net3)
mkdir -p "$work/serial" "$work/out" "$work/keep"
for n in "${names[@]}"; do
  "$mc" -model="$model" -emit-bundle="$work/serial" -network-name="$n" -mcpu=baseline -cache-dir="$cache" ||
    fail "serial compile of $n"
done
entries=$(find "$cache" -mindepth 2 -type f -name '????????????????????????????????????????????????????????????????')
[ "$(echo "$entries" | wc -l)" = 4 ] || fail "expected 4 entries after the serial compiles: $entries"
cp $entries "$work/keep/"
size=$(stat -c %s $entries | sort -n | tail -1)
"$gc" -cache-dir="$cache" -z >/dev/null || fail "glowc-cache -z"
expected=$(cd "$work/serial" && ls | sort)

restore() {
  for e in "$work/keep"/*; do
    k=$(basename "$e")
    cp "$e" "$cache/${k:0:2}/$k.tmp-restore" && mv -f "$cache/${k:0:2}/$k.tmp-restore" "$cache/${k:0:2}/$k"
  done
}
(for ((i = 1; ; i++)); do
  if ((i % 2)); then act=-prune=$((size * 2)); else act=-C; fi
  "$gc" -cache-dir="$cache" $act >/dev/null 2>>"$work/pruner.err" || echo "glowc-cache $act failed" >>"$work/pruner.err"
  restore
  sleep 0.5
done) &
pruner=$!
trap 'kill $pruner; rm -rf "$work"' EXIT
start=$(date +%s)
for ((r = 1; r <= 2 || $(date +%s) < start + seconds; r++)); do
  pids=()
  for n in "${names[@]}" "${names[@]}" "${names[@]}" "${names[@]}" "${names[@]}"; do
    "$mc" -model="$model" -emit-bundle="$work/out" -network-name="$n" -mcpu=baseline -cache-dir="$cache" \
      -cache-max-size=$((size * 9 / 2)) 2>>"$work/errors" &
    pids+=($!)
  done
  failed=0
  for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
  [ $failed = 0 ] || { cat "$work/errors"; fail "round $r: $failed of 20 compiles failed"; }
  [ ! -s "$work/errors" ] || { cat "$work/errors"; fail "round $r: the compiles warned"; }
  for f in $expected; do
    cmp -s "$work/serial/$f" "$work/out/$f" || fail "round $r: $f differs from the serial compile"
  done
  rm -rf "$work/out"/*
done
rounds=$((r - 1))
kill $pruner
wait $pruner 2>/dev/null
trap 'rm -rf "$work"' EXIT
[ ! -s "$work/pruner.err" ] || { cat "$work/pruner.err"; fail "glowc-cache failed while compiles ran"; }
"$gc" -cache-dir="$cache" -verify >"$work/verify.log" 2>&1 || { cat "$work/verify.log"; fail "a torn entry"; }
stray=$(find "$cache" -type f -name '*tmp*' | head -3)
[ -z "$stray" ] || fail "temporary files left in the cache: $stray"
"$gc" -cache-dir="$cache" -s >"$work/stats"
count() { awk -v k="$1" 'substr($0, 1, 16) ~ "^" k " *$" {split(substr($0, 18), v, " "); print v[1]}' "$work/stats"; }
hits=$(count "local hits") misses=$(count "local misses")
[ $((hits + misses)) = $((rounds * 20)) ] || { cat "$work/stats"; fail "$hits hits + $misses misses for $((rounds * 20)) compiles"; }
echo "ok: $rounds rounds of 20 concurrent compiles under -cache-max-size=$((size * 9 / 2)), pruned and cleared" \
     "while they read ($hits hits, $misses misses, $(count evicted) evicted): every bundle byte-identical, every" \
     "entry whole, nothing left over ($(($(date +%s) - start)) s)"
