#!/usr/bin/env bash
# A CI job's compiles, cold and warm, against nginx over https on loopback (nginx-webdav.sh, a
# bearer token): every model compiled into a clean folder, first with an empty server and an empty
# local cache (compile and PUT), then with the server warm and the local cache empty (a fresh
# runner: GET only), then with the local cache warm too (as after actions/cache restored it).
# Prints wall time, hits and bytes moved.
#   bench-remote-cache.sh <model-compiler> <model.onnx>...
set -eu
mc=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
. "$here/nginx-webdav.sh"
work=$(mktemp -d)
chmod 0755 "$work"
mkdir -p "$work/srv"
trap 'nginx_stop "$work/srv" || true; rm -rf "$work"' EXIT
webdav_certs "$work/srv"
webdav_start "$work/srv" ci "unused-$RANDOM" "bench-$RANDOM"
token=$(sed -n 's/.*"PUT:Bearer \(.*\)" 0;/\1/p' "$work/srv/nginx.conf")
export GLOWC_REMOTE_CACHE=https://127.0.0.1:$webdav_port/token GLOWC_REMOTE_CACHE_CA=$work/srv/ca.pem
export GLOWC_REMOTE_CACHE_HEADER="Authorization: Bearer $token"
unset GLOWC_CACHE_DIR GLOWC_REMOTE_CACHE_MODE

# run <name> <local cache>: every model into a clean folder; one line of totals.
run() {
  local name=$1 cache=$2 t0 t1 m out logs=()
  rm -rf "$work/out"
  t0=$(date +%s.%N)
  for m in "${models[@]}"; do
    out=$work/out/$(basename "$(dirname "$m")")-$(basename "$m" .onnx)
    mkdir -p "$out"
    "$mc" -model="$m" -emit-bundle="$out" -cache-dir="$cache" -verbose >"$out.log" 2>&1 || { cat "$out.log"; exit 1; }
    logs+=("$out.log")
  done
  t1=$(date +%s.%N)
  local hits remote got put
  hits=$(cat "${logs[@]}" | grep -c "^glowc: cache hit" || true)
  remote=$(cat "${logs[@]}" | grep -c "^glowc: cache hit .*https://" || true)
  got=$(cat "${logs[@]}" | sed -n 's/^glowc: remote cache .*: GET .*: \([0-9]*\) bytes$/\1/p' | awk '{s += $1} END {print s + 0}')
  put=$(cat "${logs[@]}" | sed -n 's/^glowc: remote cache .*: PUT .*: \([0-9]*\) bytes$/\1/p' | awk '{s += $1} END {print s + 0}')
  printf '%-40s %7.2f s  %d of %d hits (%d remote)  %10d bytes downloaded  %10d uploaded\n' "$name" \
    "$(echo "$t1 - $t0" | bc)" "$hits" "${#logs[@]}" "$remote" "$got" "$put"
  for l in "${logs[@]}"; do # a hit's time, or the compile's
    printf '    %-24s %s\n' "$(basename "$l" .log)" "$(sed -En 's/^glowc: cache hit .*, ([0-9.]+ s)\)$/hit in \1/p;
      s/^glowc: time: .*total ([0-9.]+ s)$/compiled in \1/p; s/^glowc: remote cache .*: (GET|PUT) .*: ([0-9]+ bytes)$/\1 \2/p' "$l" |
      paste -sd ' ')"
  done
}
models=("$@")
run "cold (empty server, no local cache)" "$work/local-1"
run "warm server, fresh runner" "$work/local-2"
run "warm server and local cache" "$work/local-2"
