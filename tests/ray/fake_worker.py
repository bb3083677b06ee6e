#!/usr/bin/env python3
"""A test double of `kforecast worker --listen` for the farm's tests: each job takes
KFORECAST_FARM_TEST_DELAY seconds and answers `no_gpu`, and leaves a line in
$KFORECAST_FARM_TEST_DIR/jobs (its replica's pid) and a file busy-<replica pid> while it
runs, so a test can kill the replica that holds a job."""

import argparse
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

p = argparse.ArgumentParser()
p.add_argument("command")
p.add_argument("--listen", required=True)
p.add_argument("--token-env", default="KFORECAST_WORKER_TOKEN")
p.add_argument("--job-timeout")
p.add_argument("--max-request-bytes")
p.add_argument("--store")
args = p.parse_args()
token = os.environ[args.token_env]
delay = float(os.environ.get("KFORECAST_FARM_TEST_DELAY", "2"))
out_dir = os.environ.get("KFORECAST_FARM_TEST_DIR", "/tmp")
replica = os.getppid()


class Handler(BaseHTTPRequestHandler):
    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def ok(self):
        return self.headers.get("Authorization") == f"Bearer {token}"

    def do_GET(self):
        if not self.ok():
            return self.answer(401, {"error": "token"})
        self.answer(200, {"ok": False, "version": "fake", "message": "no GPU (test double)", "slots": 1})

    def do_POST(self):
        if not self.ok():
            return self.answer(401, {"error": "token"})
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        busy = os.path.join(out_dir, f"busy-{replica}")
        with open(os.path.join(out_dir, "jobs"), "a") as f:
            f.write(f"{replica}\n")
        open(busy, "w").close()
        time.sleep(delay)
        os.unlink(busy)
        self.answer(200, {"status": "no_gpu", "message": f"no GPU (test double in {replica})"})

    def log_message(self, *a):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"kforecast worker listening on http://127.0.0.1:{server.server_address[1]}", file=sys.stderr, flush=True)
server.serve_forever()
