#!/usr/bin/env bash
# The sanitize tests (tests/sanitize/CMakeLists.txt).
#   run.sh build <tree> <glowc source> <clang> [kernels]   configure and build the sanitized tree
#                                                (with [kernels], a built targets folder, its kernel bitcode)
#   run.sh tests <tree>                          unit tests, integration tests, node tests, models there
#   run.sh fuzz <tree> <parser> <seconds> <corpus dir> [keep dir]   one fuzzer for that long (the
#                                                corpus it ends with copied to keep dir)
# A sanitizer report anywhere in the output fails the test, even in a test that expects the tool
# to exit non-zero (bad input). Exit 77: skipped, with the reason.
set -u
mode=$1 tree=$(realpath -m "$2")
reports='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer'
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1
ready() {
  [ -f "$tree/sanitize-ready" ] || { echo "skipped: no sanitized tree ($tree): sanitize.build was skipped or failed"; exit 77; }
}
# <log>...: fails, showing each report with what led to it, if the logs hold any.
scan() {
  local found=0
  for log in "$@"; do
    if grep -Eq "$reports" "$log"; then
      echo "FAIL: sanitizer reports in $log:"
      grep -En -B4 -A12 "$reports" "$log" | head -200
      found=1
    fi
  done
  return $found
}

case $mode in
build)
  src=$3 clang=$4 kernels=${5-}
  probe=$(mktemp -d)
  trap 'rm -rf "$probe"' EXIT
  echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return d && n > 1 && d[0] == 7; }' >"$probe/f.c"
  if ! "$clang" -fsanitize=fuzzer,address,undefined "$probe/f.c" -o "$probe/f" >"$probe/log" 2>&1; then
    echo "skipped: $clang cannot build with -fsanitize=fuzzer,address,undefined (clang's runtimes, Debian's"
    echo "libclang-rt-19-dev, are missing; scripts/install-deps.sh installs them):"
    cat "$probe/log"
    exit 77
  fi
  clangxx=${clang/clang/clang++}
  rm -f "$tree/sanitize-ready"
  start=$(date +%s)
  CC=$clang CXX=$clangxx cmake -S "$src" -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGLOWC_SANITIZE=ON -DGLOWC_FUZZ=ON -DGLOWC_KERNELS_FROM="$kernels" >"$tree.configure.log" 2>&1 ||
    { cat "$tree.configure.log"; exit 1; }
  cmake --build "$tree" >"$tree.build.log" 2>&1 || { tail -50 "$tree.build.log"; exit 1; }
  echo "the sanitized tree ($tree) built in $(( $(date +%s) - start )) s"
  touch "$tree/sanitize-ready" ;;
tests)
  ready
  integration='^integration\.(digits-example|digits-example-int8|digits-example-zst|embedded-weights|static-api-cxx|threads-identical-[01]|thread-pool|executors|glowc-run|cache-static|cache-dynamic|cache-stats|disable-pass|plugin-.*)$'
  models='^models\.(digits_cnn|mlp|transformer|layernorm_mlp|lstm|squeezenet1_1)$|^caffe2\.(ops|squeezenet1_1|driver)$'
  status=0
  for set in "-L unit" "-R $integration|$models|^sanitize-subset\." ; do
    log=$tree/sanitize-$(echo "$set" | cut -c2).log
    # shellcheck disable=SC2086
    ctest --test-dir "$tree" -V $set >"$log" 2>&1 || { grep -E "% tests passed|\(Failed\)|Not Run" "$log"; status=1; }
    grep -E "% tests passed" "$log"
  done
  scan "$tree"/sanitize-L.log "$tree"/sanitize-R.log || status=1
  [ $status = 0 ] && echo "ok: no sanitizer report (unit tests, integration, node tests, models)"
  exit $status ;;
fuzz)
  ready
  parser=$3 seconds=$4 corpus=$5 keep=${6-}
  bin=$tree/tests/fuzz/fuzz-$parser
  [ -x "$bin" ] || { echo "FAIL: no fuzzer $bin"; exit 1; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/corpus"
  [ -d "$corpus" ] && cp "$corpus"/* "$work/corpus/" 2>/dev/null
  before=$(ls "$work/corpus" | wc -l)
  (cd "$work" && "$bin" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
     "$work/corpus") >"$work/log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
  echo "fuzz-$parser: ${runs:-?} executions in $seconds s, corpus $before -> $(ls "$work/corpus" | wc -l) inputs"
  [ -n "$keep" ] && mkdir -p "$keep" && cp "$work/corpus"/* "$keep/"
  if [ $rc != 0 ] || ! scan "$work/log" >/dev/null; then
    mkdir -p "$tree/fuzz-findings"
    for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
      [ -e "$f" ] && cp "$f" "$tree/fuzz-findings/$parser-$(basename "$f")" && echo "input kept: $tree/fuzz-findings/$parser-$(basename "$f")"
    done
    echo "FAIL: fuzz-$parser found a problem (exit $rc):"
    grep -En -B2 -A25 "$reports|==ERROR|deadly signal|Timeout|out-of-memory" "$work/log" | head -80
    exit 1
  fi ;;
*) echo "usage: run.sh build|tests|fuzz ..."; exit 2 ;;
esac
