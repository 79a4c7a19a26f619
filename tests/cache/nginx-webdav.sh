# An https WebDAV cache on loopback for the remote-cache tests (sourced): nginx (nginx-extras) as
# users run it in front of a shared cache, with certificates made here by openssl. Uses
# tests/bazel/nginx.sh's nginx_bin, nginx_conf_head and nginx_stop.
#   webdav_certs <dir>  a test CA (<dir>/ca.pem), a server certificate it signed for 127.0.0.1
#                       (<dir>/server.pem) and one that expired in 2020 (<dir>/expired.pem)
#   webdav_start <dir> <user> <password> <token>
#                       serves <dir>/store over https on 127.0.0.1:$webdav_port with the valid
#                       certificate and on $webdav_expired_port with the expired one:
#                       /glowc/ takes basic auth (<user>:<password>, an htpasswd file written by
#                       openssl passwd); /token/ is read by anyone and written only with an
#                       "Authorization: Bearer <token>" header (the README's CI setup);
#                       requests logged in <dir>/access.log.
#   nginx_stop <dir>    stops it.
# bazel-remote, the other cache server CI systems run, has no Debian package (apt-cache search
# bazel-remote finds none), so nginx is the only real server these tests start.
. "$(dirname "${BASH_SOURCE[0]}")/../bazel/nginx.sh"

webdav_certs() {
  local dir=$1
  ec() { openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$dir/$1.key" "${@:2}"; }
  ec ca -x509 -out "$dir/ca.pem" -subj /CN=glowc-test-ca -days 2 2>/dev/null
  ec server -out "$dir/server.csr" -subj /CN=127.0.0.1 2>/dev/null
  ec expired -out "$dir/expired.csr" -subj /CN=127.0.0.1 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1\n' >"$dir/san.ext"
  openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial \
    -extfile "$dir/san.ext" -days 2 -out "$dir/server.pem" 2>/dev/null
  # openssl 3.0's req and x509 take no start date; `openssl ca` does.
  mkdir -p "$dir/ca"
  : >"$dir/ca/index.txt"
  echo 01 >"$dir/ca/serial"
  cat >"$dir/ca/ca.cnf" <<EOT
[ca]
default_ca = test
[test]
database = $dir/ca/index.txt
new_certs_dir = $dir/ca
serial = $dir/ca/serial
default_md = sha256
policy = any
[any]
commonName = supplied
EOT
  openssl ca -batch -notext -config "$dir/ca/ca.cnf" -cert "$dir/ca.pem" -keyfile "$dir/ca.key" \
    -in "$dir/expired.csr" -extfile "$dir/san.ext" -startdate 20200101000000Z -enddate 20200102000000Z \
    -out "$dir/expired.pem" 2>/dev/null
  [ -s "$dir/server.pem" ] && [ -s "$dir/expired.pem" ]
}

webdav_start() {
  local dir=$1 user=$2 password=$3 token=$4 try
  chmod 0755 "$dir"
  mkdir -p "$dir/store" "$dir/tmp"
  chmod 0777 "$dir/store" "$dir/tmp"
  printf '%s:%s\n' "$user" "$(openssl passwd -apr1 "$password")" >"$dir/htpasswd"
  chmod 0644 "$dir/htpasswd" "$dir"/*.key
  for try in 1 2 3 4 5; do
    read -r webdav_port webdav_expired_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
    {
      nginx_conf_head "$dir"
      cat <<EOT
  client_max_body_size 0;
  root $dir/store;
  dav_methods PUT;
  create_full_put_path on;
  dav_access user:rw group:rw all:rw;
  map "\$request_method:\$http_authorization" \$token_refused {
    default 1;
    "~^(GET|HEAD):" 0;
    "PUT:Bearer $token" 0;
  }
  server {
    listen 127.0.0.1:$webdav_port ssl;
    ssl_certificate $dir/server.pem;
    ssl_certificate_key $dir/server.key;
    location /glowc/ {
      auth_basic "glowc cache";
      auth_basic_user_file $dir/htpasswd;
    }
    location /token/ {
      if (\$token_refused) {
        return 401;
      }
    }
  }
  server {
    listen 127.0.0.1:$webdav_expired_port ssl;
    ssl_certificate $dir/expired.pem;
    ssl_certificate_key $dir/expired.key;
  }
}
EOT
    } >"$dir/nginx.conf"
    if "$nginx_bin" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" 2>>"$dir/error.log"; then
      for _ in $(seq 50); do [ -s "$dir/nginx.pid" ] && return 0; sleep 0.1; done
    fi
    echo "nginx did not start on ports $webdav_port, $webdav_expired_port (try $try):" >&2
    tail -3 "$dir/error.log" >&2
  done
  return 1
}
