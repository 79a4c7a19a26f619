#!/usr/bin/env bash
# -ram-size and -flash-size on the digits model for a Cortex-M0 (thumbv6m-none-eabi):
#  * -verbose prints the budget; its parts are the header's sizes (<NET>_*_MEM_SIZE and
#    <NET>_STACK_SIZE), the flash's code part the object's loaded sections as llvm-readelf
#    lists them, and each total the sum of its parts;
#  * at exactly its total each size fits, silently; a byte less fails, naming the total and
#    the byte over, and leaves no bundle; a bundle compiled for more RAM is not handed out
#    from the compile cache for less;
#  * with -weights=embedded the constant weights leave the RAM for the flash; -entry
#    bundles are checked too; with -llvm-compiler the stack is glowc's own object's, and the
#    header has no <NET>_STACK_SIZE (another tool made the object).
#   run-budget.sh <model-compiler> <llvm tools dir> <glowc source dir> <work dir>
set -uo pipefail
mc=$1 llvm=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
model=$src/examples/digits/digits.onnx
status=0
fail() { echo "FAIL: $*"; status=1; }
# compile <name> <options...>: the bundle in $work/<name>, stderr in $work/<name>.err, exit status in rc
compile() {
  local name=$1
  shift
  rc=0
  "$mc" -model="$model" -network-name=net -bundle-api=static -target=thumbv6m-none-eabi -emit-bundle="$work/$name" \
    "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
}
macro() { sed -n "s/^#define NET_$2 \([0-9]*\)$/\1/p" "$work/$1/net.h"; }
# part <file> <budget heading> <part name>: that part's bytes
part() { awk -v h="$2" -v p="$3" 'index($0, h) {on = 1; next} on && !/^  / {on = 0} on && index($0, "  " p " ") == 1 {
  sub("^  " p " +", ""); print $1; exit}' "$1"; }

compile a -verbose -ram-size=64K -flash-size=1M -cache-dir="$work/cache"
[ $rc = 0 ] || { cat "$work/a.err"; fail "the bundle does not fit in 64K of RAM and 1M of flash"; exit 1; }
ram=$(sed -n "s/^glowc: RAM for bundle 'net': \([0-9]*\) bytes of -ram-size=64K (65536 bytes, [0-9]*%)$/\1/p" "$work/a.err")
flash=$(sed -n "s/^glowc: flash for bundle 'net': \([0-9]*\) bytes of -flash-size=1M (1048576 bytes, [0-9]*%)$/\1/p" \
  "$work/a.err")
[ -n "$ram" ] && [ -n "$flash" ] || { cat "$work/a.err"; fail "-verbose prints no RAM or flash budget"; exit 1; }
for p in "activations ACTIVATIONS_MEM_SIZE" "mutable weights MUTABLE_MEM_SIZE" "constant weights CONSTANT_MEM_SIZE" \
         "stack, at most STACK_SIZE"; do
  got=$(part "$work/a.err" "RAM for bundle" "${p% *}") want=$(macro a "${p##* }")
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "RAM part '${p% *}' is '$got' bytes, the header's NET_${p##* } '$want'"
done
sum=0
for p in activations "mutable weights" "constant weights" "stack, at most"; do
  sum=$((sum + $(part "$work/a.err" "RAM for bundle" "$p")))
done
[ "$sum" = "$ram" ] || fail "the RAM parts add up to $sum, the total is $ram"
# Flash: the object's allocated sections with contents (llvm-readelf: flags with A, type not NOBITS).
code=0
for hex in $("$llvm/llvm-readelf" -S -W "$work/a/net.o" | awk '/^ *\[ *[0-9]+\]/ {sub(/^ *\[ *[0-9]+\] */, "");
  if ($2 != "NOBITS" && $7 ~ /A/) print $5}'); do
  code=$((code + 16#$hex))
done
[ "$(part "$work/a.err" "flash for bundle" "code and read-only data")" = "$code" ] ||
  fail "flash part 'code and read-only data' is not the object's $code bytes of loaded sections"
[ "$(part "$work/a.err" "flash for bundle" "constant weights")" = "$(macro a CONSTANT_MEM_SIZE)" ] ||
  fail "flash part 'constant weights' is not the header's NET_CONSTANT_MEM_SIZE"
[ $((code + $(macro a CONSTANT_MEM_SIZE))) = "$flash" ] || fail "the flash parts do not add up to $flash"
echo "budget: RAM $ram bytes (stack $(macro a STACK_SIZE)), flash $flash bytes"

compile b -ram-size=$ram -flash-size=$flash
[ $rc = 0 ] && [ ! -s "$work/b.err" ] && [ -f "$work/b/net.o" ] ||
  { cat "$work/b.err"; fail "-ram-size=$ram -flash-size=$flash: exit status $rc, or stderr not empty"; }
compile c -ram-size=$((ram - 1))
[ $rc = 1 ] && grep -q "^.*digits.onnx: error: bundle 'net' needs $ram bytes of RAM, more than -ram-size=$((ram - 1)) \
($((ram - 1)) bytes):$" "$work/c.err" && grep -Eq "^  total +$ram  1 byte over$" "$work/c.err" ||
  { cat "$work/c.err"; fail "-ram-size=$((ram - 1)): exit status $rc, or no error naming the total and the byte over"; }
compile d -flash-size=$((flash - 1))
[ $rc = 1 ] && grep -q "error: bundle 'net' needs $flash bytes of flash, more than -flash-size=$((flash - 1))" \
  "$work/d.err" || { cat "$work/d.err"; fail "-flash-size=$((flash - 1)): exit status $rc, or no error"; }
compile e -ram-size=$((ram - 1)) -cache-dir="$work/cache"
[ $rc = 1 ] || fail "-ram-size=$((ram - 1)) with the cache that holds the bundle checked for 64K: exit status $rc"
for b in c d e; do
  [ ! -e "$work/$b" ] || fail "bundle $b, which did not fit, left $(ls -A "$work/$b")"
done

compile f -weights=embedded -verbose -ram-size=64K -flash-size=1M
ram_f=$(sed -n "s/^glowc: RAM for bundle 'net': \([0-9]*\) bytes.*/\1/p" "$work/f.err")
[ "$(part "$work/f.err" "RAM for bundle" "constant weights")" = 0 ] &&
  [ "$(part "$work/f.err" "flash for bundle" "constant weights")" = "$(macro a CONSTANT_MEM_SIZE)" ] ||
  { cat "$work/f.err"; fail "-weights=embedded: the constant weights are not in flash only"; }
[ -n "$ram_f" ] && [ "$ram_f" -lt "$ram" ] || fail "-weights=embedded needs $ram_f bytes of RAM, not less than $ram"

compile g -entry=second,"$src/../shared/onnx-node-tests/test_relu/model.onnx" -ram-size=2K
[ $rc = 1 ] && grep -q "error: bundle 'net' needs [0-9]* bytes of RAM, more than -ram-size=2K (2048 bytes):" \
  "$work/g.err" && grep -Eq "^  stack, at most +[0-9]+  deepest path (net|second) " "$work/g.err" ||
  { cat "$work/g.err"; fail "-entry with -ram-size=2K: exit status $rc, or no error with the entries' stack"; }

if [ -x "$llvm/llc" ]; then
  compile h -llvm-compiler="$llvm/llc" -ram-size=2K
  [ $rc = 1 ] && grep -q "glowc's own code generation, not the external LLVM tools'" "$work/h.err" ||
    { cat "$work/h.err"; fail "-llvm-compiler with -ram-size=2K: exit status $rc, or the stack's origin not said"; }
  compile i -llvm-compiler="$llvm/llc"
  [ $rc = 0 ] && ! grep -q STACK_SIZE "$work/i/net.h" || fail "-llvm-compiler: the header has a STACK_SIZE"
fi
[ $status = 0 ] && echo "all checks passed"
exit $status
