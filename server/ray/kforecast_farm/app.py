"""The Serve application: a team's GPUs as one kforecast worker URL.

- `GpuWorker`: one replica per GPU (`num_gpus: 1`, so Ray places one on each GPU and
  sets its `CUDA_VISIBLE_DEVICES`), running a `kforecast worker --listen` on loopback;
  it takes one job at a time (`max_ongoing_requests: 1`), so Serve sends each job to a
  free replica and queues the rest.
- `Farm`: the HTTP ingress. Today's worker protocol (`GET /v1/health`,
  `POST /v1/measure`, `GET`/`PUT /v1/store/<key>`) behind the team's bearer token; a
  job whose replica dies is sent again to another (Ray restarts the dead one); health
  says how many jobs the farm measures at once (`slots`), so a client keeps every GPU
  busy; the shared store is a `kforecast worker --store DIR` beside the ingress.

Started with `serve run` / `serve deploy` on `farm.yaml` (see README.md).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
import socket
import time

from ray import serve
from ray.serve.handle import DeploymentHandle
from starlette.requests import Request
from starlette.responses import Response

from .process import WorkerError, WorkerProcess

STORE = "/v1/store/"
DEFAULTS = {
    "gpus": 1,
    "binary": "kforecast",
    "token_env": "KFORECAST_WORKER_TOKEN",
    "store_dir": None,
    "job_timeout": 120,
    "max_request_bytes": 8 << 20,
    "attempts": 4,
}


def _json(status: int, body: dict | bytes, replica: str | None = None) -> Response:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"X-Kforecast-Replica": replica} if replica else {}
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    return Response(content=content, status_code=status, media_type="application/json", headers=headers)


@serve.deployment(ray_actor_options={"num_gpus": 1}, max_ongoing_requests=1, health_check_period_s=10)
class GpuWorker:
    """One GPU: a kforecast worker on loopback, one job at a time."""

    def __init__(self, binary: str, job_timeout: int, max_request_bytes: int):
        self.worker = WorkerProcess(binary, job_timeout, max_request_bytes=max_request_bytes)
        self.worker.start()
        self.name = f"{socket.gethostname()}:{os.getpid()}"

    async def measure(self, body: bytes) -> tuple[int, bytes, str]:
        status, out = await asyncio.to_thread(self.worker.request, "POST", "/v1/measure", body)
        return status, out, self.name

    async def health(self) -> tuple[int, bytes, str]:
        status, out = await asyncio.to_thread(self.worker.request, "GET", "/v1/health", None, 60)
        return status, out, self.name

    def __del__(self):
        self.worker.stop()


@serve.deployment(num_replicas=1, ray_actor_options={"num_cpus": 0})
class Farm:
    """The one URL: auth, routes, a job retried on another replica, the shared store."""

    def __init__(self, workers: DeploymentHandle, cfg: dict):
        self.workers = workers
        self.cfg = cfg
        token = os.environ.get(cfg["token_env"], "").strip()
        if not token:
            raise RuntimeError(
                f"set the farm's bearer token in ${cfg['token_env']} on the cluster "
                "(in the environment of `ray start`, or the application's runtime_env)")
        self.token = token.encode()
        self.store = (WorkerProcess(cfg["binary"], store_dir=os.path.expanduser(cfg["store_dir"]),
                                    max_request_bytes=cfg["max_request_bytes"])
                      if cfg["store_dir"] else None)
        self.health: tuple[float, dict] | None = None

    def authorized(self, request: Request) -> bool:
        auth = request.headers.get("authorization", "")
        given = auth[len("Bearer "):].strip().encode() if auth.startswith("Bearer ") else b""
        return hmac.compare_digest(given, self.token)

    async def __call__(self, request: Request) -> Response:
        if not self.authorized(request):
            return _json(401, {"error": "missing or wrong bearer token"})
        path, method = request.url.path, request.method
        if path in ("/v1/health", "/v1/measure") or path.startswith(STORE):
            allowed = {"/v1/health": ("GET",), "/v1/measure": ("POST",)}.get(path, ("GET", "PUT"))
            if method not in allowed:
                return _json(405, {"error": "method not allowed"})
        else:
            return _json(404, {"error": "no such endpoint (try /v1/health, /v1/measure or /v1/store/<key>)"})
        body = b""
        if method in ("POST", "PUT"):
            limit = self.cfg["max_request_bytes"]
            if int(request.headers.get("content-length") or 0) > limit:
                return _json(413, {"error": f"request body over the {limit} byte limit"})
            body = await request.body()
            if len(body) > limit:
                return _json(413, {"error": f"request body over the {limit} byte limit"})
        if path == "/v1/health":
            return await self.farm_health()
        if path == "/v1/measure":
            return await self.measure(body)
        return await self.shared_store(method, path, body)

    async def measure(self, body: bytes) -> Response:
        problems = []
        for attempt in range(self.cfg["attempts"]):
            try:
                status, out, replica = await self.workers.measure.remote(body)
                return _json(status, out, replica)
            except Exception as e:  # a replica that died mid-job, or its worker that did not answer
                problems.append(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
                await asyncio.sleep(min(0.5 * 2 ** attempt, 5.0))
        return _json(503, {"error": "no GPU replica could take the job: " + "; ".join(problems)})

    async def farm_health(self) -> Response:
        now = time.monotonic()
        if self.health is None or (not self.health[1].get("ok") and now - self.health[0] > 30):
            try:
                status, out, _ = await self.workers.health.remote()
                h = json.loads(out) if status == 200 else {"ok": False, "message": out.decode(errors="replace")}
            except Exception as e:
                h = {"ok": False, "message": f"no GPU replica answered: {e}"}
            h.setdefault("version", "")
            self.health = (now, h)
        return _json(200, dict(self.health[1], slots=self.cfg["gpus"], farm=True))

    async def shared_store(self, method: str, path: str, body: bytes) -> Response:
        if self.store is None:
            return _json(501, {"error": "this farm keeps no shared store (set store_dir in its args)"})
        try:
            status, out = await asyncio.to_thread(self.store.request, method, path, body or None, 30)
        except WorkerError as e:
            return _json(503, {"error": str(e)})
        return _json(status, out)


def build(args: dict) -> serve.Application:
    """The application from `farm.yaml`'s `args` (or `serve run kforecast_farm.app:build gpus=4`)."""
    unknown = sorted(set(args) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown farm args {unknown}; known: {sorted(DEFAULTS)}")
    cfg = dict(DEFAULTS, **args)
    for k in ("gpus", "job_timeout", "max_request_bytes", "attempts"):
        cfg[k] = int(cfg[k])
    if cfg["gpus"] < 1:
        raise ValueError("gpus must be at least 1 (one replica per GPU)")
    workers = GpuWorker.options(num_replicas=cfg["gpus"]).bind(
        cfg["binary"], cfg["job_timeout"], cfg["max_request_bytes"])
    return Farm.bind(workers, cfg)
