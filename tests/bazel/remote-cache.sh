#!/usr/bin/env bash
# Bazel's HTTP remote cache, served by nginx (WebDAV PUT) on loopback: builds the
# digits example into one output base, then into a fresh one; every model-compile
# (GlowBundle) action of the second build must be a remote cache hit.
#   remote-cache.sh [source-dir]
#   GLOWC_KEEP_REMOTE_CACHE_DIR=1 keeps the logs and cache (and leaves nginx running).
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/tests/bazel/common.sh"
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "nginx not found (apt-get install nginx-extras)" >&2; exit 1; }
nginx=$(command -v nginx || echo /usr/sbin/nginx)

dir=$(mktemp -d "${TMPDIR:-/tmp}/glowc-remote-cache.XXXXXX")
roots=()
cleanup() {
  [ -n "${GLOWC_KEEP_REMOTE_CACHE_DIR-}" ] && { echo "kept $dir"; return; }
  for r in "${roots[@]}"; do bazel --output_user_root="$r" shutdown >/dev/null 2>&1 || true; done
  [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null || true
  chmod -R u+w "$dir" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

# nginx's workers may run as another user (nobody, when started as root).
chmod 0755 "$dir"
mkdir -p "$dir/cache" "$dir/tmp"
chmod 0777 "$dir/cache" "$dir/tmp"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$dir/nginx.conf" <<EOT
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log;
events {}
http {
  access_log $dir/access.log;
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  server {
    listen 127.0.0.1:$port;
    root $dir/cache;
    client_max_body_size 0;
    location / {
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw group:rw all:rw;
    }
  }
}
EOT
"$nginx" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log"
for _ in $(seq 50); do [ -f "$dir/nginx.pid" ] && break; sleep 0.1; done

# build <n>: the example into a fresh output root, through the remote cache only.
build() {
  local root=$dir/root$1 start
  roots+=("$root")
  start=$(date +%s.%N)
  (cd "$src" && bazel --output_user_root="$root" --max_idle_secs=30 build --symlink_prefix=/ --color=no --curses=no \
    --noshow_progress --remote_cache="http://127.0.0.1:$port" --execution_log_json_file="$dir/exec$1.json" \
    //examples/digits:digits-classify) >"$dir/build$1.log" 2>&1 || { cat "$dir/build$1.log" >&2; return 1; }
  echo "build $1: $(python3 -c "print('%.1f' % ($(date +%s.%N) - $start))") s; $(grep -o '[0-9]* processes: .*' "$dir/build$1.log" | head -1)"
}
build 1
build 2

# Count the GlowBundle actions of the second build and their remote cache hits.
read -r total hits < <(python3 - "$dir/exec2.json" <<'EOT'
import json, sys
text, dec, i, total, hits = open(sys.argv[1]).read(), json.JSONDecoder(), 0, 0, 0
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    entry, i = dec.raw_decode(text, i)
    if entry.get("mnemonic") == "GlowBundle":
        total += 1
        hits += bool(entry.get("remoteCacheHit"))
print(total, hits)
EOT
)
echo "GlowBundle actions in the second build: $total, remote cache hits: $hits"
[ "$total" -gt 0 ] && [ "$total" -eq "$hits" ]
bin=$(cd "$src" && bazel --output_user_root="$dir/root2" info --symlink_prefix=/ --remote_cache="http://127.0.0.1:$port" bazel-bin 2>/dev/null)
out=$("$bin/examples/digits/digits-classify" "$bin/examples/digits/digits_bundle.bundle/digits.weights.bin")
check_predictions "$out" "$src/examples/digits/expected.txt"
