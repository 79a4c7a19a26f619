#!/usr/bin/env bash
# The compiler's lower rooms call nothing above them: compiler/util/ and compiler/ir/ include
# only glowc.h and their own headers, and their objects take no symbol from an object of a
# higher layer (ops, interp, passes, plugin, quant, plan, codegen, importer, the driver);
# util/ takes from ir/ only the element types (ir/dtype.c).
#   check-layering.sh <compiler source dir> <object>...   (glowc_compiler's and the tools' objects)
set -euo pipefail
src=$1
shift
status=0
fail() { echo "check-layering: $*"; status=1; }

# Includes: "glowc.h", a header of the room itself, ir/'s own .def tables.
for room in util ir; do
  allowed="glowc.h|$room/[A-Za-z0-9_.-]+"
  [ "$room" = ir ] && allowed="$allowed|ops-[a-z]+\.def"
  n=0
  for f in "$src/compiler/$room"/*; do
    n=$((n + 1))
    while IFS= read -r line; do
      fail "compiler/$room/${f##*/} includes a higher layer's header: $line"
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | grep -vE "\"($allowed)\"" || true)
  done
  [ "$n" -gt 0 ] || fail "no files under $src/compiler/$room"
done

# Symbols: each object's room is the folder its source sits in (CMake names an object
# <target>.dir/<room>/<file>.c.o); the tools' objects (compiler/driver) are all "driver".
objs=()
for o in "$@"; do
  if [ -f "$o" ]; then objs+=("$o"); else fail "no object $o (build the tree first)"; fi
done
nlow=0
if [ "${#objs[@]}" -gt 0 ]; then
  report=$(nm -A "${objs[@]}" | awk '
    function room(path, r) {
      if (path ~ /\/compiler\/driver\//) return "driver"
      if (path !~ /\.dir\//) return "other"
      r = path; sub(/^.*\.dir\/(\.\/)?/, "", r); sub(/\/.*/, "", r); return r
    }
    function file(path, f) { f = path; sub(/^.*\//, "", f); sub(/\.o$/, "", f); return f }
    {
      path = $1; sub(/:[^:]*$/, "", path); r = room(path)
      if ($2 == "U") { if (r == "util" || r == "ir") { used[++n] = r SUBSEP file(path) SUBSEP $3; low[path] = 1 } }
      else if (NF == 3 && $2 ~ /^[A-Z]$/) def[$3] = r "/" file(path)
    }
    END {
      for (p in low) nlow++
      print "objects " nlow
      for (i = 1; i <= n; i++) {
        split(used[i], u, SUBSEP)
        if (!(u[3] in def)) continue # the C library, LLVM, libyaml...
        from = def[u[3]]; fr = from; sub(/\/.*/, "", fr)
        if (fr == "util" || (u[1] == "ir" && fr == "ir") || (u[1] == "util" && from == "ir/dtype.c")) continue
        print u[1] "/" u[2] " calls " u[3] ", defined in " from " (a higher layer)"
      }
    }')
  nlow=$(echo "$report" | sed -n 's/^objects //p')
  while IFS= read -r line; do
    [ -n "$line" ] && fail "$line"
  done < <(echo "$report" | grep -v '^objects ' || true)
fi
[ "${nlow:-0}" -gt 0 ] || fail "no util/ or ir/ objects among the arguments"

[ "$status" -eq 0 ] && echo "check-layering: compiler/util and compiler/ir use nothing above them (${nlow} objects, $# in all)"
exit "$status"
