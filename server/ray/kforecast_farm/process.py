"""One `kforecast worker --listen` child on a loopback port, and requests to it.

The child keeps today's protocol (health, measure, shared store) and does the hard
parts itself: each job in a supervised grandchild with a time limit, restarted after a
crash or a GPU fault. This side only starts it (again, if it died), with a token of its
own, and forwards bytes.
"""

from __future__ import annotations

import ctypes
import http.client
import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import time

LISTENING = re.compile(r"listening on http://([0-9.]+):(\d+)")
TOKEN_ENV = "KFORECAST_FARM_CHILD_TOKEN"


def _die_with_parent() -> None:
    """The child is killed when its replica dies (Linux), so a killed replica leaves no
    worker holding the GPU."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


class WorkerError(Exception):
    """The worker could not be started or did not answer."""


class WorkerProcess:
    def __init__(self, binary: str, job_timeout: int = 120, store_dir: str | None = None,
                 max_request_bytes: int = 8 << 20):
        self.binary = binary
        self.job_timeout = job_timeout
        self.store_dir = store_dir
        self.max_request_bytes = max_request_bytes
        self.token = secrets.token_hex(24)
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.lock = threading.Lock()

    def start(self) -> None:
        cmd = [self.binary, "worker", "--listen", "127.0.0.1:0", "--token-env", TOKEN_ENV,
               "--job-timeout", str(self.job_timeout), "--max-request-bytes", str(self.max_request_bytes)]
        if self.store_dir:
            os.makedirs(self.store_dir, exist_ok=True)
            cmd += ["--store", self.store_dir]
        env = dict(os.environ, **{TOKEN_ENV: self.token})
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, env=env, text=True,
                                    preexec_fn=_die_with_parent)
        except OSError as e:
            raise WorkerError(f"cannot start `{self.binary} worker` (is kforecast installed on this node? "
                              f"set `binary` in the farm's args): {e}") from e
        deadline = time.monotonic() + 30
        seen = []
        assert proc.stderr is not None
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line:
                break
            seen.append(line.rstrip())
            m = LISTENING.search(line)
            if m:
                self.port = int(m.group(2))
                self.proc = proc
                # The worker's log goes on to this replica's log.
                threading.Thread(target=_drain, args=(proc.stderr,), daemon=True).start()
                return
        proc.kill()
        raise WorkerError(f"`{' '.join(cmd)}` did not start listening: {' | '.join(seen[-5:])}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def request(self, method: str, path: str, body: bytes | None = None,
                timeout: float | None = None) -> tuple[int, bytes]:
        """(status, body) from the worker; started first if it is not running."""
        with self.lock:
            if not self.alive():
                self.start()
            port = self.port
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout or self.job_timeout + 60)
        try:
            headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            return resp.status, resp.read()
        except (OSError, http.client.HTTPException) as e:
            raise WorkerError(f"the local worker did not answer {method} {path}: {e}") from e
        finally:
            conn.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _drain(stream) -> None:
    for line in stream:
        sys.stderr.write(line)
