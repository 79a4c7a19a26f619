#!/usr/bin/env bash
# The README's second command: installs what glowc and its tests need, builds with
# warnings as errors, and runs the whole test suite with ctest. .ci/run calls this.
#   GLOWC_BUILD_DIR  build folder (default: build-test)
#   GLOWC_CTEST_ARGS extra ctest arguments, e.g. "-L unit" or "-LE conformance"
#   CTEST_PARALLEL_LEVEL tests run at once (default: one per core, as nproc counts them;
#                    the suite passes at -j2, which halves CI's time on its 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# python3 through a version manager's shim (pyenv's is a bash script: 0.3 s a start) costs
# time over the suite's many starts: put the interpreter's own folder first on PATH
# (the same interpreter, so CMake and the tests find what they found before).
if py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$py" ] &&
  [ "$(command -v python3)" != "$py" ]; then
  PATH=$(dirname "$py"):$PATH
fi
build=${GLOWC_BUILD_DIR:-build-test}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGLOWC_WERROR=ON
cmake --build "$build"
export CTEST_PARALLEL_LEVEL=${CTEST_PARALLEL_LEVEL:-$(nproc)}
status=0
# shellcheck disable=SC2086
ctest --test-dir "$build" --output-on-failure ${GLOWC_CTEST_ARGS:-} || status=$?
# What the fuzzers did (sanitize.fuzz-<parser>), from the tests' logs.
grep -h "^fuzz-.* executions in" "$build/Testing/Temporary/LastTest.log" 2>/dev/null || true
exit $status
