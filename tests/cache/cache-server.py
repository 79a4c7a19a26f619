#!/usr/bin/env python3
"""A throwaway HTTP GET/PUT store for the remote-cache test (the protocol of
Bazel's HTTP cache / nginx WebDAV), kept for the lies a real server does not tell
(check-remote-nginx.sh runs nginx for the rest). Binds 127.0.0.1 on a free port, writes the
port to <port-file>, serves <dir>, and exits after <seconds> in any case.
  cache-server.py <dir> <port-file> <seconds>
It lies on request: <dir>/.mode holding
  huge-length  GET claims Content-Length: 1 TiB, then streams bytes without end;
  short-body   GET claims 1000 bytes more than it sends, then closes;
  keep-open    GET answers rightly but keeps the connection open for 30 s;
  503-once     GET answers 503 once (then the mode file is removed), as a
               restarting server behind a proxy does."""
import http.server, os, sys, threading, time

root, port_file, lifetime = sys.argv[1], sys.argv[2], float(sys.argv[3])

class Handler(http.server.BaseHTTPRequestHandler):
    def path_on_disk(self):
        name = self.path.strip("/").replace("/", "_")
        return os.path.join(root, name) if name and not name.startswith(".") else None

    def do_GET(self):
        p = self.path_on_disk()
        if not p or not os.path.isfile(p):
            self.send_error(404)
            return
        data = open(p, "rb").read()
        mode_file = os.path.join(root, ".mode")
        mode = open(mode_file).read().strip() if os.path.exists(mode_file) else ""
        if mode == "503-once":
            os.remove(mode_file)
            self.send_error(503)
            return
        self.send_response(200)
        claimed = {"huge-length": 1 << 40, "short-body": len(data) + 1000}.get(mode, len(data))
        self.send_header("Content-Length", str(claimed))
        self.end_headers()
        try:
            self.wfile.write(data)
            while mode == "huge-length":
                self.wfile.write(b"\0" * 65536)
            self.wfile.flush()
            if mode == "keep-open":
                time.sleep(30)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_PUT(self):
        p = self.path_on_disk()
        data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if not p:
            self.send_error(400)
            return
        with open(p + ".tmp", "wb") as f:
            f.write(data)
        os.replace(p + ".tmp", p)
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, fmt, *args):
        sys.stderr.write("cache-server: " + fmt % args + "\n")

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)  # a lying GET holds no other request up
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.replace(port_file + ".tmp", port_file)
threading.Timer(lifetime, lambda: os._exit(0)).start()
server.serve_forever()
