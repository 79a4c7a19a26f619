#!/usr/bin/env python3
"""A throwaway HTTP GET/PUT store for the remote-cache test (the protocol of
Bazel's HTTP cache / nginx WebDAV). Binds 127.0.0.1 on a free port, writes the
port to <port-file>, serves <dir>, and exits after <seconds> in any case.
  cache-server.py <dir> <port-file> <seconds>"""
import http.server, os, sys, threading

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
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

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

server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.replace(port_file + ".tmp", port_file)
threading.Timer(lifetime, lambda: os._exit(0)).start()
server.serve_forever()
