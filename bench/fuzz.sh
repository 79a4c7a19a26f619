#!/usr/bin/env bash
# Longer fuzzing on demand (CI runs each fuzzer 30 s: the sanitize tests). Builds the sanitized
# tree with the libFuzzer targets if needed, runs every fuzzer (or those named) for SECONDS each
# on a copy of its corpus, prints executions per fuzzer, keeps crashing inputs in
# <tree>/fuzz-findings and, with --merge, adds the new inputs that reach new code to
# tests/fuzz/corpus/<parser> (libFuzzer's -merge=1: only inputs that add coverage).
#   bench/fuzz.sh [--merge] [SECONDS [parser...]]     (default: 600 s, every parser)
#   GLOWC_SANITIZE_TREE  the tree (default: build-sanitize)
set -euo pipefail
cd "$(dirname "$0")/.."
merge=0
[ "${1-}" = --merge ] && { merge=1; shift; }
seconds=${1:-600}
shift || true
parsers=("$@")
[ ${#parsers[@]} -gt 0 ] || parsers=(import-onnx import-caffe2 import-tflite tensor-pb cache-entry profile weights-zst)
tree=${GLOWC_SANITIZE_TREE:-build-sanitize}
clang=$(command -v clang-19 || command -v clang)
[ -f "$tree/sanitize-ready" ] || bash tests/sanitize/run.sh build "$tree" "$PWD" "$clang"
status=0
for p in "${parsers[@]}"; do
  ended=$(mktemp -d)
  bash tests/sanitize/run.sh fuzz "$tree" "$p" "$seconds" "tests/fuzz/corpus/$p" "$ended" || status=1
  if [ $merge = 1 ]; then
    "$tree/tests/fuzz/fuzz-$p" -merge=1 "tests/fuzz/corpus/$p" "$ended" 2>&1 | grep -E "MERGE-OUTER: [0-9]+ new files" || true
  fi
  rm -rf "$ended"
done
exit $status
