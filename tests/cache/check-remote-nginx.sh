#!/usr/bin/env bash
# The remote compile cache against a real server: nginx WebDAV over https on loopback (a test CA
# in GLOWC_REMOTE_CACHE_CA), with basic auth and a bearer token. A first compile stores; a
# compile into a clean folder is a hit (credentials from the URL, GLOWC_REMOTE_CACHE, ~/.netrc or
# -remote-cache-header); a wrong password, a missing token, an expired or untrusted certificate
# are a clear warning and a local compile (exit 0); -remote-cache-mode=r never writes and =w
# never reads. The password and token appear in no message, log, cache key or bundle file. A
# malformed URL or header and an unreadable CA file are refused before anything compiles.
#   check-remote-nginx.sh <model-compiler> <model.onnx> [extra options...]
set -eu
mc=$1
model=$2
shift 2
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "skipped: no nginx (apt-get install nginx-extras)"; exit 77; }
command -v openssl >/dev/null || { echo "skipped: no openssl"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/nginx-webdav.sh"
work=$(mktemp -d)
srv=$work/srv
mkdir -p "$srv"
chmod 0755 "$work" # nginx's workers may run as another user (nobody, when started as root)
trap 'nginx_stop "$srv" || true; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

user=ci
password=pw-$RANDOM-Secret
token=tok-$RANDOM-Secret
webdav_certs "$srv" || fail "openssl could not make the test certificates"
webdav_start "$srv" "$user" "$password" "$token" || fail "nginx did not start"
base=https://127.0.0.1:$webdav_port
export GLOWC_REMOTE_CACHE_CA=$srv/ca.pem
export HOME=$work/home # ~/.netrc, and none of the user's
mkdir -p "$HOME"
unset GLOWC_REMOTE_CACHE GLOWC_CACHE_DIR https_proxy HTTPS_PROXY http_proxy all_proxy ALL_PROXY

# compile <name> [options...]: into $work/<name>, -verbose, log in $work/<name>.log; must succeed.
compile() {
  local out=$work/$1
  shift
  "$mc" -model="$model" -emit-bundle="$out" -network-name=net -verbose "$@" >"$out.log" 2>&1 ||
    { cat "$out.log"; fail "compile into $out failed"; }
}
compiled() { grep -q "nodes after optimization" "$work/$1.log" || { cat "$work/$1.log"; fail "$1: expected a compile"; }; }
hit() {
  grep -q "^glowc: cache hit" "$work/$1.log" || { cat "$work/$1.log"; fail "$1: expected a remote hit"; }
  ! grep -q "nodes after optimization" "$work/$1.log" || fail "$1: a hit must not compile"
  for f in "$work/first"/*; do cmp -s "$f" "$work/$1/$(basename "$f")" || fail "$1: $(basename "$f") differs"; done
}
warned() { grep -Eq "$2" "$work/$1.log" || { cat "$work/$1.log"; fail "$1: no warning matching '$2'"; }; }
stored() { find "$srv/store/$1" -type f 2>/dev/null | wc -l; }

url=https://$user:$password@127.0.0.1:$webdav_port/glowc
compile first -remote-cache="$url" "$@"
compiled first
[ "$(stored glowc)" = 1 ] || { cat "$srv/error.log"; fail "nothing stored on nginx"; }
echo "ok: miss, compiled, stored over https with basic auth"

compile url-hit -remote-cache="$url" "$@"
hit url-hit
GLOWC_REMOTE_CACHE=$url compile env-hit "$@"
hit env-hit
printf 'machine 127.0.0.1\nlogin %s\npassword %s\n' "$user" "$password" >"$HOME/.netrc"
chmod 600 "$HOME/.netrc"
compile netrc-hit -remote-cache="$base/glowc" "$@"
hit netrc-hit
rm "$HOME/.netrc"
echo "ok: hits with the password in -remote-cache, in GLOWC_REMOTE_CACHE and in ~/.netrc"

compile wrong-password -remote-cache="https://$user:not-$password@127.0.0.1:$webdav_port/glowc" "$@"
warned wrong-password "warning: remote cache https://127.0.0.1:$webdav_port/glowc: GET [0-9a-f]{64}: HTTP status 401: the credentials were refused"
warned wrong-password "PUT [0-9a-f]{64}: HTTP status 401"
compiled wrong-password

# The remote side of glowc-cache -s (with a local folder): a remote hit, a refusal (an error), and a
# key the server does not have (a miss: another network name), each after a local miss.
if [ -n "${GLOWC_CACHE_TOOL-}" ]; then
  cd_=$work/local-cache
  compile stats-hit -cache-dir="$cd_" -remote-cache="$url" "$@"
  hit stats-hit
  compile stats-error -cache-dir="$work/local-cache-2" -remote-cache="https://$user:not-$password@127.0.0.1:$webdav_port/glowc" "$@"
  "$mc" -model="$model" -emit-bundle="$work/stats-miss" -network-name=other -cache-dir="$work/local-cache-2" \
    -remote-cache-mode=r -remote-cache="$url" "$@" >"$work/stats-miss.log" 2>&1 || fail "stats-miss: compile failed"
  s1=$("$GLOWC_CACHE_TOOL" -cache-dir="$cd_" -s) s2=$("$GLOWC_CACHE_TOOL" -cache-dir="$work/local-cache-2" -s)
  grep -Eq "^remote hits +1$" <<<"$s1" && grep -Eq "^local misses +1$" <<<"$s1" &&
    grep -Eq "^remote errors +1$" <<<"$s2" && grep -Eq "^remote misses +1$" <<<"$s2" &&
    grep -Eq "^remote hits +0$" <<<"$s2" || fail "glowc-cache -s: $s1 / $s2"
  echo "ok: glowc-cache -s counts a remote hit, a refusal (an error) and a key the server lacks (a miss)"
fi
echo "ok: a wrong password: a warning naming the refused credentials, a local compile, exit 0"

header="Authorization: Bearer $token"
compile token-first -remote-cache="$base/token" -remote-cache-header="$header" "$@"
compiled token-first
[ "$(stored token)" = 1 ] || fail "nothing stored with the bearer token"
compile token-hit -remote-cache="$base/token" -remote-cache-header="X-Glowc-Test: 1" -remote-cache-header="$header" "$@"
hit token-hit
GLOWC_REMOTE_CACHE=$base/token GLOWC_REMOTE_CACHE_HEADER=$header compile env-token-hit "$@"
hit env-token-hit
# A fork's job, without the token: it reads (a hit), and GLOWC_REMOTE_CACHE_MODE=r keeps it from
# trying to write; a write without the token is refused (a warning, the compile goes on).
GLOWC_REMOTE_CACHE_MODE=r compile fork-hit -remote-cache="$base/token" "$@"
hit fork-hit
! grep -q warning "$work/fork-hit.log" || { cat "$work/fork-hit.log"; fail "fork-hit: a warning"; }
compile no-token -remote-cache="$base/token" -network-name=no_token "$@"
warned no-token "PUT [0-9a-f]{64}: HTTP status 401: the credentials were refused"
compiled no-token
[ "$(stored token)" = 1 ] || fail "a PUT without the token stored an entry"
echo "ok: a bearer token in -remote-cache-header: stored, then a hit (also from GLOWC_REMOTE_CACHE_HEADER); without it a read-only hit, and a write refused with a warning"

compile expired -remote-cache="https://$user:$password@127.0.0.1:$webdav_expired_port/glowc" "$@"
warned expired "warning: remote cache https://127.0.0.1:$webdav_expired_port/glowc: .*certificate has expired"
compiled expired
GLOWC_REMOTE_CACHE_CA= compile untrusted -remote-cache="$url" "$@"
warned untrusted "warning: remote cache .*(certificate|issuer)"
compiled untrusted
echo "ok: an expired certificate, and one no trusted CA signed: a warning and a local compile"

# -remote-cache-mode: r reads (a hit) and never writes; w writes and never reads.
compile ro-hit -remote-cache="$url" -remote-cache-mode=r "$@"
hit ro-hit
compile ro-new -remote-cache="$url" -remote-cache-mode=r -network-name=ro "$@"
compiled ro-new
[ "$(stored glowc)" = 1 ] || fail "-remote-cache-mode=r stored an entry"
gets=$(grep -c '"GET /glowc/' "$srv/access.log")
compile wo -remote-cache="$url" -remote-cache-mode=w "$@"
compiled wo
[ "$(grep -c '"GET /glowc/' "$srv/access.log")" = "$gets" ] || fail "-remote-cache-mode=w sent a GET"
grep -q '"PUT /glowc/[0-9a-f]* HTTP/1.1" 20[14]' "$srv/access.log" || fail "-remote-cache-mode=w stored nothing"
echo "ok: -remote-cache-mode=r read and wrote nothing; =w wrote and read nothing"

# The credentials stay out of the key, every message and every bundle file.
k1=$("$mc" -model="$model" -emit-bundle="$work/k" -network-name=net -print-cache-key "$@")
k2=$("$mc" -model="$model" -emit-bundle="$work/k" -network-name=net -print-cache-key -remote-cache="$url" \
  -remote-cache-header="$header" "$@")
[ "$k1" = "$k2" ] || fail "the remote cache's credentials changed the key"
! grep -rlF -e "$password" -e "$token" "$work" "$srv/store" --exclude-dir=srv --exclude-dir=home ||
  fail "the password or token above is in a log, bundle or cache entry"
echo "ok: neither the password nor the token in the key, the logs (-verbose), the bundles or the entries"

# Proxies come from the environment (curl's https_proxy): a dead one is a warning and a compile.
https_proxy=http://127.0.0.1:9 compile proxied -remote-cache="$url" "$@"
warned proxied "warning: remote cache .*127.0.0.1 port 9"
compiled proxied
echo "ok: https_proxy is used (a dead proxy: a warning and a compile)"

# Bad input: refused before anything compiles, named, nothing written, the secrets not shown.
refused() {
  local name=$1 want=$2
  shift 2
  if "$@" -model="$model" -emit-bundle="$work/bad-$name" >"$work/bad-$name.log" 2>&1; then
    fail "$name: accepted"
  fi
  grep -Eq "$want" "$work/bad-$name.log" || { cat "$work/bad-$name.log"; fail "$name: no error matching '$want'"; }
  ! grep -qF -e "$password" -e "$token" "$work/bad-$name.log" || fail "$name: the error shows the secret"
  [ ! -e "$work/bad-$name" ] || fail "$name: $work/bad-$name written"
  echo "ok: $name: $(head -1 "$work/bad-$name.log")"
}
refused url-scheme "^-remote-cache: error: 'ftp://127.0.0.1/x' is not http\[s\]://" "$mc" -remote-cache=ftp://127.0.0.1/x
refused url-host "^-remote-cache: error: 'https:///glowc' is not" "$mc" -remote-cache=https:///glowc
refused url-port "^-remote-cache: error: 'https://127.0.0.1:99999/glowc' is not" "$mc" -remote-cache=https://$user:$password@127.0.0.1:99999/glowc
refused url-query "^-remote-cache: error: .* is not" "$mc" -remote-cache="$base/glowc?x=1"
refused env-url "^GLOWC_REMOTE_CACHE: error: 'http://a b' is not.*environment variable" env GLOWC_REMOTE_CACHE="http://$user:$password@a b" "$mc"
refused header-name "^-remote-cache-header: error: the header name has a character it cannot hold after 'Bad'" "$mc" -remote-cache="$url" "-remote-cache-header=Bad Name: $token"
refused header-colon "^-remote-cache-header: error: no ':' between the name and the value" "$mc" -remote-cache="$url" "-remote-cache-header=Authorization Bearer $token"
refused header-empty "^-remote-cache-header: error: header Authorization: no value" "$mc" -remote-cache="$url" -remote-cache-header=Authorization:
refused header-newline "^-remote-cache-header: error: header Authorization: the value holds a control character" "$mc" -remote-cache="$url" "-remote-cache-header=Authorization: Bearer $token
X-Injected: 1"
refused env-header "^GLOWC_REMOTE_CACHE_HEADER: error: no ':' between" env GLOWC_REMOTE_CACHE_HEADER="Bearer $token" "$mc" -remote-cache="$url"
refused ca-missing "^GLOWC_REMOTE_CACHE_CA: error: cannot read the CA file '$work/none.pem': No such file" env GLOWC_REMOTE_CACHE_CA="$work/none.pem" "$mc" -remote-cache="$url"
refused ca-not-pem "^GLOWC_REMOTE_CACHE_CA: error: '$srv/htpasswd' holds no PEM certificate" env GLOWC_REMOTE_CACHE_CA="$srv/htpasswd" "$mc" -remote-cache="$url"
refused mode "^-remote-cache-mode: error: 'rx' is not rw" "$mc" -remote-cache="$url" -remote-cache-mode=rx
refused env-mode "^GLOWC_REMOTE_CACHE_MODE: error: 'ro' is not rw" env GLOWC_REMOTE_CACHE_MODE=ro "$mc" -remote-cache="$url"
echo "PASS"
