# An HTTP cache on loopback for the tests (sourced): nginx (nginx-extras) with WebDAV PUT,
# the protocol of Bazel's HTTP remote cache and of model-compiler's -remote-cache.
#   nginx_start <dir>  serves <dir>/store at http://127.0.0.1:$nginx_port (a free port), logs
#                      in <dir>/access.log and <dir>/error.log; sets nginx_port and nginx_pid.
#   nginx_stop <dir>   stops it by the PID in <dir>/nginx.pid and waits until it is gone.
#   nginx_conf_head <dir>  the configuration's common start (pid, logs, temporary files).
nginx_bin=$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true)
[ -n "$nginx_bin" ] || { echo "nginx not found (apt-get install nginx-extras)" >&2; exit 1; }

# The start of a configuration for a server in <dir>, up to inside http {} (the tests' other
# nginx, tests/cache/nginx-webdav.sh, uses it too).
nginx_conf_head() {
  local dir=$1
  cat <<EOT
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
EOT
}

nginx_start() {
  local dir=$1 try
  # nginx's workers may run as another user (nobody, when started as root).
  chmod 0755 "$dir"
  mkdir -p "$dir/store" "$dir/tmp"
  chmod 0777 "$dir/store" "$dir/tmp"
  # The free port is found, then bound by nginx: another process may take it in between, so a
  # failed start tries another port.
  for try in 1 2 3 4 5; do
    nginx_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    {
      nginx_conf_head "$dir"
      cat <<EOT
  server {
    listen 127.0.0.1:$nginx_port;
    root $dir/store;
    client_max_body_size 0;
    location / {
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw group:rw all:rw;
    }
  }
}
EOT
    } >"$dir/nginx.conf"
    # nginx daemonizes: its master writes the PID file once it listens.
    if "$nginx_bin" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" 2>>"$dir/error.log"; then
      for _ in $(seq 50); do [ -s "$dir/nginx.pid" ] && break; sleep 0.1; done
      if [ -s "$dir/nginx.pid" ]; then
        nginx_pid=$(cat "$dir/nginx.pid")
        return 0
      fi
    fi
    echo "nginx did not start on port $nginx_port (try $try):" >&2
    tail -3 "$dir/error.log" >&2
  done
  return 1
}

nginx_stop() {
  local dir=$1 pid
  [ -s "$dir/nginx.pid" ] || return 0
  pid=$(cat "$dir/nginx.pid")
  kill "$pid" 2>/dev/null || return 0
  # The master removes its PID file after its workers have exited.
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  echo "nginx (PID $pid) did not stop within 10 s" >&2
  return 1
}
