#!/usr/bin/env bash
# The test driver's guard pages (run-bundle.c) work: a node test's bundle runs and passes with
# its areas against inaccessible pages, and the same program writing one byte past the end of
# its activations (GLOWC_TEST_GUARD_OVERRUN) dies of SIGSEGV. The conformance, model and cross
# tests run every bundle this way, so a kernel reading or writing past an area fails them.
#   check-guard.sh <model-compiler> "<link command with {obj} and {exe}>" <node test folder>
set -u
mc=$1 link=$2 case=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$mc" -model="$case/model.onnx" -emit-bundle="$work" -network-name=model -bundle-api=dynamic || exit 1
cmd=${link//\{obj\}/$work/model.o}
cmd=${cmd//\{exe\}/$work/run}
eval "$cmd" && [ -x "$work/run" ] || { echo "FAIL: link: $cmd"; exit 1; }
"$work/run" "$work/model.weights.bin" "$case/test_data_set_0" || { echo "FAIL: the bundle does not pass with guarded areas"; exit 1; }
GLOWC_TEST_GUARD_OVERRUN=1 "$work/run" "$work/model.weights.bin" "$case/test_data_set_0" >/dev/null 2>&1
rc=$?
[ $rc = 139 ] || { echo "FAIL: a write one byte past the activations exited $rc, not by SIGSEGV (139)"; exit 1; }
echo "ok: the bundle passes with guarded areas; a write past the activations area faults"
