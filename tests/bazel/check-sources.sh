#!/usr/bin/env bash
# Fails when the source lists in the Bazel BUILD files and in CMake differ:
# compiler/CMakeLists.txt + compiler/ops/sources.cmake vs compiler/BUILD, and
# targets/common/kernels.cmake and each target's target.cmake vs targets/BUILD.
#   check-sources.sh [source-dir]
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
status=0

# Quoted or bare *.c paths outside comments, in file order.
c_files() { sed -e 's/#.*//' "$@" | grep -oE '"?[A-Za-z0-9_./${}-]+\.c"?' | tr -d '"'; }

compare() { # name, cmake list, bazel list
  if ! diff <(echo "$2") <(echo "$3") >/dev/null; then
    echo "check-sources: $1 differs between CMake (<) and Bazel (>):"
    diff <(echo "$2") <(echo "$3") || true
    status=1
  fi
}

cmake_compiler=$(sed -n '/add_library(glowc_compiler/,/^)/p' "$src/compiler/CMakeLists.txt" | c_files /dev/stdin |
  sed 's|^\${proto_out}/|importer/|')
cmake_ops=$(sed -n '/set(GLOWC_OP_SOURCES/,/^)/p' "$src/compiler/ops/sources.cmake" | c_files /dev/stdin)
bazel_compiler=$(sed -n '/name = "glowc_compiler"/,/^)/p' "$src/compiler/BUILD" | sed -n '/srcs = \[/,/^    \],/p' | c_files /dev/stdin)
bazel_ops=$(sed -n '/^GLOWC_OP_SOURCES = \[/,/^\]/p' "$src/compiler/BUILD" | c_files /dev/stdin)
compare "glowc_compiler sources" "$cmake_compiler" "$bazel_compiler"
compare "GLOWC_OP_SOURCES" "$cmake_ops" "$bazel_ops"

cmake_kernels=$(sed -n '/set(GLOWC_KERNEL_SOURCES/,/^)/p' "$src/targets/common/kernels.cmake" | c_files /dev/stdin)
bazel_kernels=$(sed -n '/^GLOWC_KERNEL_SOURCES = \[/,/^\]/p' "$src/targets/BUILD" | c_files /dev/stdin)
compare "GLOWC_KERNEL_SOURCES" "$cmake_kernels" "$bazel_kernels"

# Every add_executable(...) whole, its continuation lines too.
cmake_driver=$(awk '/add_executable\(/ { f = 1 } f { print } f && /\)/ { f = 0 }' "$src/compiler/driver/CMakeLists.txt" |
  c_files /dev/stdin | sort)
bazel_driver=$(c_files "$src/compiler/driver/BUILD" | sort)
compare "driver sources" "$cmake_driver" "$bazel_driver"

# Each kernel target's triple and flags: targets/CMakeLists.txt's GLOWC_TARGETS and their
# <t>/target.cmake against targets/BUILD's GLOWC_TARGETS (a dict literal), and no target with
# sources of its own, which targets/BUILD does not compile.
if ! /usr/bin/python3 - "$src/targets" <<'PY'
import ast, os, re, shlex, sys
d = sys.argv[1]
build = open(os.path.join(d, "BUILD")).read()
bazel = ast.literal_eval(re.search(r"^GLOWC_TARGETS = (\{.*?^\})", build, re.S | re.M).group(1))
cmake = re.search(r"set\(GLOWC_TARGETS ([^)]*)\)", open(os.path.join(d, "CMakeLists.txt")).read()).group(1).split()
bad = 0
def say(msg):
    global bad
    print("check-sources: " + msg)
    bad = 1
if sorted(cmake) != sorted(bazel):
    say("the kernel targets differ: CMake %s, Bazel %s" % (sorted(cmake), sorted(bazel)))
for t in cmake:
    text = re.sub(r"#.*", "", open(os.path.join(d, t, "target.cmake")).read())
    get = lambda var: (re.search(r"set\(%s\b\s*(.*?)\)" % var, text, re.S) or [None, ""])[1]
    triple, cflags = get("GLOWC_TARGET_TRIPLE").strip(), shlex.split(get("GLOWC_TARGET_CFLAGS").strip().strip('"'))
    if t in bazel and (triple, cflags) != (bazel[t][0], list(bazel[t][1])):
        say("target %s: CMake has %s %s, Bazel %s %s" % (t, triple, cflags, bazel[t][0], list(bazel[t][1])))
    own = get("GLOWC_TARGET_KERNEL_SOURCES").split()
    own += [os.path.join(t, "kernels", f) for f in sorted(os.listdir(os.path.join(d, t, "kernels")))
            if f.endswith(".c")] if os.path.isdir(os.path.join(d, t, "kernels")) else []
    if own:
        say("target %s has kernel sources of its own (%s): targets/BUILD compiles common/'s only" % (t, ", ".join(own)))
sys.exit(bad)
PY
then
  status=1
fi

[ "$status" -eq 0 ] && echo "check-sources: Bazel and CMake source lists agree"
exit "$status"
