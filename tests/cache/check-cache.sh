#!/usr/bin/env bash
# The local compile cache (-cache-dir): a second compile into a fresh directory
# is a hit with byte-identical files; a changed option or model misses; a
# truncated or bit-flipped entry, or another compile's valid entry copied under
# this key (misfiled or poisoned), is detected, never used, and recompiled.
#   check-cache.sh <model-compiler> <model.onnx> [extra options...]
set -eu
mc=$1
model=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache=$work/cache
fail() { echo "FAIL: $*"; exit 1; }

# compile <out dir> [options...]: compile into a fresh directory, log in <out dir>.log
compile() {
  local out=$1
  shift
  mkdir -p "$out"
  "$mc" -model="$model" -emit-bundle="$out" -network-name=net -cache-dir="$cache" -verbose "$@" "${extra[@]}" \
    >"$out.log" 2>&1 || { cat "$out.log"; fail "compile into $out failed"; }
}
hit() { grep -q "^glowc: cache hit " "$1.log"; }
compiled() { grep -q "nodes after optimization" "$1.log"; }
same() {
  local n=0
  for f in "$1"/*; do
    cmp -s "$f" "$2/$(basename "$f")" || fail "$(basename "$f") differs between $1 and $2"
    n=$((n + 1))
  done
  [ "$(ls "$2" | wc -l)" = "$n" ] || fail "file sets of $1 and $2 differ"
  [ "$n" -ge 3 ] || fail "expected at least 3 bundle files, got $n"
}
extra=("$@")

compile "$work/first"
! hit "$work/first" && compiled "$work/first" || fail "first compile should miss and compile"
entry=$(find "$cache" -mindepth 2 -type f)
[ "$(echo "$entry" | wc -l)" = 1 ] || fail "expected one cache entry, found: $entry"
echo "stored: ${entry#"$cache"/} ($(stat -c %s "$entry") bytes)"

compile "$work/second"
hit "$work/second" || fail "second compile should be a cache hit"
! compiled "$work/second" || fail "a cache hit must not compile"
same "$work/first" "$work/second"
echo "hit: identical bundle, no compilation"

GLOWC_CACHE_DIR=$cache "$mc" -model="$model" -emit-bundle="$(mkdir -p "$work/env" && echo "$work/env")" \
  -network-name=net -verbose "${extra[@]}" >"$work/env.log" 2>&1
hit "$work/env" || fail "GLOWC_CACHE_DIR should give a hit"
same "$work/first" "$work/env"
echo "hit through GLOWC_CACHE_DIR"

before=$(find "$cache" -mindepth 2 -type f)
compile "$work/renamed" -network-name=other
other_key=$(find "$cache" -mindepth 2 -type f | grep -vxF "$before" | xargs -n1 basename)
! hit "$work/renamed" && compiled "$work/renamed" || fail "another -network-name must miss"
[ -f "$work/renamed/other.o" ] || fail "-network-name=other did not give other.o"
compile "$work/static-reloc" -relocation-model=static
! hit "$work/static-reloc" || fail "another -relocation-model must miss"
cp "$model" "$work/edited.onnx"
printf '\n' >>"$work/edited.onnx" # other bytes: the key covers them (whether they still parse does not matter)
"$mc" -model="$work/edited.onnx" -emit-bundle="$(mkdir -p "$work/edited" && echo "$work/edited")" -network-name=net \
  -cache-dir="$cache" -verbose "${extra[@]}" >"$work/edited.log" 2>&1 || true
! hit "$work/edited" || fail "other model bytes must miss"
echo "misses: -network-name, -relocation-model, model bytes"

# Corruptions of the entry: each must be detected, deleted, recompiled; outputs still right.
size=$(stat -c %s "$entry")
corrupt() {
  case $1 in
  truncate) truncate -s $((size - 100)) "$entry" ;;
  truncate-header) truncate -s 20 "$entry" ;;
  flip-data) printf '\x5a' | dd of="$entry" bs=1 seek=$((size - 1000)) conv=notrunc status=none ;;
  flip-header) printf '\x5a' | dd of="$entry" bs=1 seek=18 conv=notrunc status=none ;;
  magic) printf 'X' | dd of="$entry" bs=1 seek=0 conv=notrunc status=none ;;
  poisoned) cp "$other" "$entry" ;; # a valid entry, of -network-name=other
  esac
}
other=$(find "$cache" -type f ! -path "$entry" -path "*/$other_key")
[ -s "$other" ] || fail "no entry of the -network-name=other compile"
for how in truncate truncate-header flip-data flip-header magic poisoned; do
  compile "$work/$how.warm" # (re)stores a good entry
  corrupt $how
  compile "$work/$how"
  grep -q "warning: corrupted cache entry" "$work/$how.log" || { cat "$work/$how.log"; fail "$how: not reported"; }
  [ $how != poisoned ] || grep -q "another key" "$work/$how.log" || fail "poisoned: not reported as such"
  ! hit "$work/$how" && compiled "$work/$how" || fail "$how: corrupted entry used"
  same "$work/first" "$work/$how"
  [ "$(stat -c %s "$entry")" = "$size" ] || fail "$how: the recompile did not store a good entry again"
  echo "corruption ($how): detected, recompiled, identical bundle"
done
echo "PASS"
