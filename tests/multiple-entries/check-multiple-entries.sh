#!/usr/bin/env bash
# Several entries in one bundle (issue 24), as Glow's bundle_with_multiple_entries uses them:
# make-models.py's two networks compiled into testBundle with -entry, with the dynamic and the
# static API; clients of our own (dynamic-client.cpp, static-client.cpp) run testMainEntry1 and
# testMainEntry2 in both orders over one set of areas against numpy's outputs. Then the forms
# that must agree, and the refusals, each leaving nothing behind.
#   check-multiple-entries.sh <model-compiler> <python with onnx> "<c++ and flags>" <this dir>
set -u
mc=$1 py=$2 cxx=$3 here=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
cd "$work" || exit 1
"$py" "$here/make-models.py" "$work" || exit 1

entries=(-entry=testMainEntry1,net1.onnx -entry=testMainEntry2,net2.onnx)
"$mc" -network-name=testBundle "${entries[@]}" -emit-bundle=dynamic -bundle-api=dynamic || exit 1
"$mc" -network-name=testBundle "${entries[@]}" -emit-bundle=static -bundle-api=static -weights=bin,txt || exit 1
ls dynamic | tr '\n' ' ' | grep -qx 'testBundle.h testBundle.o testBundle.weights.bin ' ||
  fail "dynamic bundle files: $(ls dynamic | tr '\n' ' ')"

# The header: both entries declared, the static API's macros for every entry's tensors, the
# entries and their sharing of the areas in the comment.
for api in dynamic static; do
  h=$api/testBundle.h
  for e in testMainEntry1 testMainEntry2; do
    grep -q "^int $e(uint8_t \*constantWeight, uint8_t \*mutableWeight, uint8_t \*activations);" "$h" ||
      fail "$h: no prototype of $e"
  done
  grep -q '^//   testMainEntry1: input input1; output output1$' "$h" || fail "$h: the comment on testMainEntry1"
  grep -q '^//   testMainEntry2: input input2; output output2$' "$h" || fail "$h: the comment on testMainEntry2"
  grep -q 'run one$' "$h" || fail "$h: the comment does not say to run one entry at a time"
done
for sym in input1 output1 input2 output2; do
  grep -q "^#define TESTBUNDLE_$sym [0-9]*$" static/testBundle.h || fail "static header: no TESTBUNDLE_$sym"
done
# One object exporting both entries and the config, nothing else.
exports=$(nm -g --defined-only dynamic/testBundle.o | awk '{print $3}' | sort | tr '\n' ' ')
[ "$exports" = "testBundle_config testBundle_tensor_info testMainEntry1 testMainEntry2 " ] ||
  fail "the object exports: $exports"

cc_run() { # client, bundle dir, arguments
  $cxx -std=c++11 -Wall -Wextra -Werror -I"$work/$2" -I"$work" -I"$here" "$here/$1" "$work/$2/testBundle.o" -lm \
    -o "$work/${1%.cpp}" || { fail "$1 does not build against the $2 bundle"; return; }
  "$work/${1%.cpp}" "${@:3}" || fail "$1"
}
cc_run dynamic-client.cpp dynamic "$work/dynamic/testBundle.weights.bin"
cc_run static-client.cpp static

# -model with -main-entry-name is the first entry, as the first -entry is; the same bytes, and
# the same again (deterministic).
"$mc" -network-name=testBundle -model=net1.onnx -main-entry-name=testMainEntry1 -entry=testMainEntry2,net2.onnx \
  -emit-bundle=model-form -bundle-api=dynamic || exit 1
"$mc" -network-name=testBundle "${entries[@]}" -emit-bundle=again -bundle-api=dynamic || exit 1
for f in testBundle.o testBundle.h testBundle.weights.bin; do
  cmp -s dynamic/$f model-form/$f || fail "-model + -main-entry-name and -entry make different $f"
  cmp -s dynamic/$f again/$f || fail "two compiles make different $f"
done

# -model-input goes to the model with an input of that name; one naming no entry's input is refused.
"$mc" -network-name=testBundle "${entries[@]}" -model-input=input2,float,[1,5] -emit-bundle=model-input \
  -bundle-api=dynamic || fail "-model-input=input2 with two entries"
cmp -s dynamic/testBundle.o model-input/testBundle.o || fail "-model-input=input2 (the model's shape) changed the object"

# -g: a listing per entry, named by it, and DWARF that llvm-dwarfdump accepts.
"$mc" -network-name=testBundle "${entries[@]}" -emit-bundle=debug -bundle-api=dynamic -g || fail "-g with -entry"
for e in testMainEntry1 testMainEntry2; do
  grep -q "^$e: " debug/testBundle.$e.g.txt 2>/dev/null || fail "-g: no listing testBundle.$e.g.txt"
done
dwarfdump=$(command -v llvm-dwarfdump-19 || command -v llvm-dwarfdump)
if [ -n "$dwarfdump" ]; then
  "$dwarfdump" --verify debug/testBundle.o >/dev/null || fail "-g: llvm-dwarfdump --verify"
else
  echo "skipped: llvm-dwarfdump --verify (no llvm-dwarfdump)"
fi

# The compile cache: the second compile is a hit and writes the same bundle.
"$mc" -network-name=testBundle "${entries[@]}" -emit-bundle=cached1 -bundle-api=dynamic -cache-dir=cache || exit 1
out=$("$mc" -network-name=testBundle "${entries[@]}" -emit-bundle=cached2 -bundle-api=dynamic -cache-dir=cache -verbose 2>&1)
grep -q "cache hit" <<<"$out" || fail "the second compile with a cache is no hit: $out"
for f in testBundle.o testBundle.h testBundle.weights.bin; do
  cmp -s dynamic/$f cached2/$f || fail "the cache's $f differs"
done

refused() { # what, message pattern, then the command line's options
  local what=$1 pattern=$2
  shift 2
  out=$("$mc" -network-name=testBundle "$@" -emit-bundle=refused/out -bundle-api=dynamic 2>&1)
  rc=$?
  if [ $rc -eq 0 ] || ! grep -qE -- "$pattern" <<<"$out"; then
    fail "$what: rc $rc, $out"
  elif [ -e refused ]; then
    fail "$what: left $(find refused | tr '\n' ' ')"
  else
    echo "refused, $what: $(head -1 <<<"$out")"
  fi
}
refused "two entries of one name" "two entries are named 'e1'" -entry=e1,net1.onnx -entry=e1,net2.onnx
refused "one input name in two entries" \
  "'input1' is an input of entry 'again' and an input of entry 'testMainEntry1' \(net1.onnx\).*rename it" \
  "${entries[@]}" -entry=again,net1.onnx
refused "an entry named as the config" "the entry 'testBundle_config' .* config symbol" \
  -entry=testBundle_config,net1.onnx -entry=e2,net2.onnx
printf 'not a model' >bad.onnx
refused "a model that does not compile" "bad.onnx: error: entry 'e2' of bundle 'testBundle' did not compile" \
  -entry=e1,net1.onnx -entry=e2,bad.onnx
refused "a -model-input of no entry" "-model-input: error: 'nosuch' is an input of none of the entries' models" \
  "${entries[@]}" -model-input=nosuch,float,[1]
refused "embedded weights" "-weights: error: not with -entry" "${entries[@]}" -weights=embedded
refused "-instrument-ir" "-instrument-ir: error: not with -entry" "${entries[@]}" -instrument-ir
out=$("$mc" "${entries[@]}" -dump-profile=p.yml 2>&1)
[ $? -ne 0 ] && grep -q -- "-entry: error: not with -dump-profile" <<<"$out" || fail "-dump-profile with -entry: $out"
[ -e p.yml ] && fail "-dump-profile with -entry wrote p.yml"

[ $status -eq 0 ] && echo "multiple entries: all checks passed"
exit $status
