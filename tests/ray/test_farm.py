"""The measurement farm on a local Ray cluster without a GPU (logical GPUs: `ray start
--head --num-gpus=2`), driven by tests/ray_farm.sh: placement on two replicas, a replica
killed mid-job and its job answered by the other, auth, and the worker protocol through
the real kforecast binary and CLI (jobs answer `no_gpu` here)."""

import concurrent.futures
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

import ray
import yaml
from ray import serve

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "server", "ray"))
from kforecast_farm.app import build  # noqa: E402

KFORECAST = os.environ["KFORECAST_BIN"]
TOKEN = os.environ["KFORECAST_WORKER_TOKEN"]
FAKE = os.path.join(ROOT, "tests", "ray", "fake_worker.py")
TEST_DIR = os.environ["KFORECAST_FARM_TEST_DIR"]
DELAY = float(os.environ["KFORECAST_FARM_TEST_DELAY"])
BASE = "test-workspaces/cuda/previous/src/transpose.cu"
CAND = "test-workspaces/cuda/src/transpose.cu"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT = free_port()
URL = f"http://127.0.0.1:{PORT}"


def http(method, path, token=TOKEN, body=None):
    """(status, body as text, replica header)."""
    req = urllib.request.Request(URL + path, data=body, method=method)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.read().decode(), r.headers.get("X-Kforecast-Replica")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), e.headers.get("X-Kforecast-Replica")


def deploy(**args):
    serve.run(build(args), name="kforecast-farm", route_prefix="/")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if http("GET", "/v1/nothing")[0] == 404:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError("the farm did not come up")


def cli(*args, cwd=ROOT):
    env = dict(os.environ, KFORECAST_CACHE_DIR=tempfile.mkdtemp())
    return subprocess.run([KFORECAST, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def setUpModule():
    ray.init(address="auto", logging_level="ERROR", log_to_driver=False)
    serve.start(http_options={"host": "127.0.0.1", "port": PORT})


def tearDownModule():
    serve.shutdown()
    ray.shutdown()


class RealWorkers(unittest.TestCase):
    """Two replicas each running the real `kforecast worker`."""

    @classmethod
    def setUpClass(cls):
        cls.store = tempfile.mkdtemp()
        deploy(gpus=2, binary=KFORECAST, store_dir=cls.store, max_request_bytes=100_000)

    def test_auth(self):
        self.assertEqual(http("GET", "/v1/health", token=None)[0], 401)
        self.assertEqual(http("GET", "/v1/health", token="wrong")[0], 401)
        self.assertEqual(http("POST", "/v1/measure", token="wrong", body=b"{}")[0], 401)
        self.assertEqual(http("GET", "/v1/store/" + "0" * 64, token=None)[0], 401)

    def test_protocol(self):
        status, body, _ = http("GET", "/v1/health")
        self.assertEqual(status, 200, body)
        h = json.loads(body)
        self.assertEqual(h["slots"], 2, h)
        self.assertIn("version", h)
        if not h["ok"]:
            self.assertTrue(h["message"], f"says why there is no GPU: {h}")
        status, body, replica = http("POST", "/v1/measure", body=b"{not json")
        self.assertEqual(status, 400, body)
        self.assertTrue(replica)
        self.assertEqual(http("GET", "/v1/measure")[0], 405)
        self.assertEqual(http("GET", "/v1/nothing")[0], 404)
        self.assertEqual(http("POST", "/v1/measure", body=b" " * 200_000)[0], 413)

    def test_the_cli_measures_through_the_farm_url(self):
        out = cli("verify", "--json", "--worker", URL, BASE, CAND)
        m = json.loads(out.stdout or "{}")
        self.assertEqual(m.get("status"), "no_gpu", f"{m} {out.stderr}")
        self.assertEqual(m["worker"], URL, m)
        out = cli("verify", "--health", "--worker", URL)
        self.assertIn(URL, out.stdout + out.stderr)

    def test_shared_store(self):
        key = "ab" * 32
        self.assertEqual(http("GET", f"/v1/store/{key}")[0], 404)
        self.assertEqual(http("GET", "/v1/store/xyz")[0], 400)
        status, body, _ = http("PUT", f"/v1/store/{key}", body=b'{"not": "a record"}')
        self.assertEqual(status, 400, body)
        self.assertTrue(os.path.exists(os.path.join(self.store, "store.redb")))

    def test_the_config_file_builds(self):
        with open(os.path.join(ROOT, "server", "ray", "farm.yaml")) as f:
            config = yaml.safe_load(f)
        app = config["applications"][0]
        self.assertEqual(app["import_path"], "kforecast_farm.app:build")
        build(app["args"])
        with self.assertRaises(ValueError):
            build({"gpu": 2})


class SlowWorkers(unittest.TestCase):
    """Two replicas running a test double whose jobs take DELAY seconds."""

    @classmethod
    def setUpClass(cls):
        deploy(gpus=2, binary=FAKE)

    def setUp(self):
        for f in os.listdir(TEST_DIR):
            os.unlink(os.path.join(TEST_DIR, f))

    def test_jobs_at_once_go_to_both_replicas(self):
        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            answers = list(ex.map(lambda _: http("POST", "/v1/measure", body=b"{}"), range(2)))
        wall = time.monotonic() - start
        self.assertEqual([a[0] for a in answers], [200, 200], answers)
        self.assertEqual(len({a[2] for a in answers}), 2, f"one replica each: {answers}")
        self.assertLess(wall, 2 * DELAY, "measured side by side")

    def test_last_a_replica_killed_mid_job_loses_no_job(self):
        with concurrent.futures.ThreadPoolExecutor(1) as ex:
            job = ex.submit(http, "POST", "/v1/measure", TOKEN, b"{}")
            deadline = time.monotonic() + 30
            busy = []
            while not busy and time.monotonic() < deadline:
                busy = [f for f in os.listdir(TEST_DIR) if f.startswith("busy-")]
                time.sleep(0.05)
            self.assertTrue(busy, "a replica took the job")
            killed = int(busy[0].split("-")[1])
            os.kill(killed, signal.SIGKILL)
            status, body, replica = job.result(timeout=120)
        self.assertEqual(status, 200, body)
        self.assertEqual(json.loads(body)["status"], "no_gpu")
        self.assertNotEqual(replica.split(":")[1], str(killed), "answered by another replica")

    def test_a_sweep_uses_every_replica(self):
        out_file = os.path.join(TEST_DIR, "sweep.jsonl")
        out = cli("sweep", "test-workspaces/cuda/src/transpose.cu", "--kernel", "transpose",
                  "--max", "4", "--json", out_file, "--worker", URL)
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(out_file) as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual(len(lines), 4)
        self.assertTrue(all(line["status"] == "no_gpu" for line in lines), lines)
        with open(os.path.join(TEST_DIR, "jobs")) as f:
            replicas = set(f.read().split())
        self.assertEqual(len(replicas), 2, f"both replicas measured: {replicas}")


if __name__ == "__main__":
    unittest.main(verbosity=2)
