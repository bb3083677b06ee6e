"""Tests for triton_runner.py that need neither torch nor a GPU.

Run from this directory with ``python3 -m unittest`` (or from anywhere with
``python3 -m unittest discover -s server/kforecast/runners``).

The protocol tests run the runner as a subprocess with a shadow ``torch``
package first on PYTHONPATH that fails to import, so they behave the same on a
machine that does have torch installed.
"""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "triton_runner.py")


def load_runner():
    spec = importlib.util.spec_from_file_location("triton_runner_under_test", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tr = load_runner()


class ShadowTorchMixin:
    """Runs the runner with `import torch` (and triton) failing."""

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="kforecast_runner_test_")
        for pkg in ("torch", "triton"):
            d = os.path.join(cls._tmp.name, pkg)
            os.makedirs(d)
            with open(os.path.join(d, "__init__.py"), "w") as f:
                f.write("raise ImportError(\"No module named '%s' (test shadow)\")\n" % pkg)
        cls.env = dict(os.environ)
        cls.env["PYTHONPATH"] = cls._tmp.name + os.pathsep + cls.env.get("PYTHONPATH", "")

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def run_runner(self, stdin_text="", args=(), timeout=60):
        proc = subprocess.run([sys.executable, RUNNER, *args], input=stdin_text,
                              capture_output=True, text=True, env=self.env, timeout=timeout)
        lines = [l for l in proc.stdout.splitlines() if l.strip()]
        responses = []
        for l in lines:
            try:
                responses.append(json.loads(l))
            except ValueError:
                self.fail("non-JSON line on stdout: %r (stderr: %s)" % (l, proc.stderr))
        return proc, responses


MEASURE = {
    "id": 7, "op": "measure",
    "base": {"path": "/nonexistent/base/softmax.py", "wrapper": "softmax"},
    "candidate": {"path": "/nonexistent/cand/softmax.py", "wrapper": "softmax"},
    "inputs": [{"name": "x", "kind": "tensor", "dtype": "float32", "shape": [64, 64],
                "init": "randn"},
               {"name": "alpha", "kind": "scalar", "value": 2.0}],
    "args": ["x"], "kwargs": {}, "outputs": "return", "seed": 0,
    "rtol": 1e-4, "atol": 1e-5, "warmup": 3, "min_reps": 10, "max_reps": 200,
    "target_rel_ci": 0.01, "max_time_ms": 3000, "flush_l2": True,
}


class ProtocolTests(ShadowTorchMixin, unittest.TestCase):

    def test_malformed_json_then_loop_continues(self):
        stdin = "{not json\n\n" + json.dumps({"id": 2, "op": "version"}) + "\n"
        proc, rs = self.run_runner(stdin)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(rs), 2)
        self.assertEqual(rs[0]["status"], "error")
        self.assertIsNone(rs[0]["id"])
        self.assertIn("invalid JSON", rs[0]["message"])
        self.assertEqual(rs[1], {**rs[1], "id": 2, "status": "ok"})
        self.assertNotIn("Traceback", proc.stdout)

    def test_non_object_request(self):
        proc, rs = self.run_runner("[1, 2]\n42\n")
        self.assertEqual([r["status"] for r in rs], ["error", "error"])
        self.assertIn("JSON object", rs[0]["message"])

    def test_unknown_op(self):
        proc, rs = self.run_runner(json.dumps({"id": "a", "op": "frobnicate"}) + "\n")
        self.assertEqual(len(rs), 1)
        self.assertEqual(rs[0]["id"], "a")
        self.assertEqual(rs[0]["status"], "error")
        self.assertIn("unknown op", rs[0]["message"])

    def test_measure_without_torch_is_no_gpu(self):
        stdin = json.dumps(MEASURE) + "\n" + json.dumps(dict(MEASURE, id=8, op="do_bench")) + "\n"
        proc, rs = self.run_runner(stdin)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual([r["id"] for r in rs], [7, 8])
        for r in rs:
            self.assertEqual(r["status"], "no_gpu")
            self.assertIn("torch is not installed", r["message"])
            self.assertNotIn("speedup", r)

    def test_invalid_measure_is_error_even_without_torch(self):
        bad = dict(MEASURE, id=9, inputs=[{"name": "x", "dtype": "float128", "shape": [4]}])
        bad2 = dict(MEASURE, id=10, args=["y"])
        bad3 = dict(MEASURE, id=11, min_reps=50, max_reps=10)
        bad4 = dict(MEASURE, id=12)
        del bad4["candidate"]
        stdin = "".join(json.dumps(r) + "\n" for r in (bad, bad2, bad3, bad4))
        proc, rs = self.run_runner(stdin)
        self.assertEqual([r["id"] for r in rs], [9, 10, 11, 12])
        self.assertTrue(all(r["status"] == "error" for r in rs), rs)
        self.assertIn("float128", rs[0]["message"])
        self.assertIn("'y'", rs[1]["message"])
        self.assertIn("max_reps", rs[2]["message"])
        self.assertIn("candidate", rs[3]["message"])

    def test_health_op_without_torch(self):
        proc, rs = self.run_runner(json.dumps({"id": 2, "op": "health"}) + "\n")
        self.assertEqual(rs[0]["id"], 2)
        self.assertEqual(rs[0]["status"], "no_gpu")
        self.assertIn("torch", rs[0]["message"])

    def test_health_flag_without_torch(self):
        proc, rs = self.run_runner(args=["--health"])
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(rs), 1)
        self.assertEqual(rs[0]["status"], "no_gpu")
        self.assertIn("torch is not installed", rs[0]["message"])

    def test_version_flag(self):
        proc, rs = self.run_runner(args=["--version"])
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(rs[0]["runner"], "kforecast-triton-runner")
        self.assertEqual(rs[0]["protocol"], tr.PROTOCOL_VERSION)

    def test_shutdown_stops_the_loop(self):
        stdin = (json.dumps({"id": 1, "op": "shutdown"}) + "\n"
                 + json.dumps({"id": 2, "op": "version"}) + "\n")
        proc, rs = self.run_runner(stdin)
        self.assertEqual(proc.returncode, 0)
        self.assertEqual([r["id"] for r in rs], [1])

    def test_user_prints_do_not_reach_stdout(self):
        # Anything printed by Python code while handling goes to stderr; here
        # a module-level print from the runner's own import path is simulated
        # by printing from a sitecustomize-free -c wrapper.
        code = ("import sys, runpy; sys.argv=['r']; "
                "print('noise before main'); "
                "runpy.run_path(%r, run_name='__main__')" % RUNNER)
        proc = subprocess.run([sys.executable, "-c", code],
                              input=json.dumps({"id": 1, "op": "version"}) + "\n",
                              capture_output=True, text=True, env=self.env, timeout=60)
        # The print before main is ordinary stdout (the runner is not yet in
        # charge); every line after it must be protocol JSON.
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[0], "noise before main")
        self.assertEqual(json.loads(lines[1])["id"], 1)
        self.assertEqual(len(lines), 2)


class StatisticsTests(unittest.TestCase):

    def test_percentile_and_summary(self):
        xs = [5.0, 1.0, 3.0, 2.0, 4.0]
        self.assertEqual(tr.percentile(xs, 50), 3.0)
        self.assertAlmostEqual(tr.percentile(xs, 10), 1.4)
        self.assertAlmostEqual(tr.percentile(xs, 90), 4.6)
        s = tr.summarize_times(xs)
        self.assertEqual(s["median_ms"], 3.0)
        self.assertEqual(s["min_ms"], 1.0)
        self.assertEqual(s["n"], 5)

    def test_median_ci_rank_exact_values(self):
        # n=10: P(B<=1) = 11/1024 <= 0.025 < P(B<=2) = 56/1024 -> [x_(2), x_(9)]
        self.assertEqual(tr.median_ci_rank(10), 2)
        # n=6: P(B=0) = 1/64 <= 0.025 -> the range [x_(1), x_(6)]
        self.assertEqual(tr.median_ci_rank(6), 1)
        # n=5: P(B=0) = 1/32 > 0.025 -> no 95 % interval
        self.assertEqual(tr.median_ci_rank(5), 0)
        self.assertEqual(tr.median_ci_rank(0), 0)
        # n=100: textbook value j = 40 ([x_(40), x_(61)])
        self.assertEqual(tr.median_ci_rank(100), 40)

    def test_median_ci_rank_coverage_is_at_least_95(self):
        import math
        for n in range(6, 400):
            j = tr.median_ci_rank(n)
            self.assertGreaterEqual(j, 1)
            tail = sum(math.comb(n, i) for i in range(j)) / 2 ** n
            self.assertLessEqual(2 * tail, 0.05 + 1e-12, n)
            tail_next = sum(math.comb(n, i) for i in range(j + 1)) / 2 ** n
            self.assertGreater(2 * tail_next, 0.05, n)  # j is the largest such rank

    def test_median_ci_values(self):
        xs = list(range(1, 11))  # 1..10 shuffled order should not matter
        lo, hi, exact = tr.median_ci(list(reversed(xs)))
        self.assertEqual((lo, hi, exact), (2.0, 9.0, True))
        lo, hi, exact = tr.median_ci([3.0, 1.0, 2.0])
        self.assertEqual((lo, hi, exact), (1.0, 3.0, False))
        with self.assertRaises(ValueError):
            tr.median_ci([])

    def test_large_n_does_not_underflow(self):
        j = tr.median_ci_rank(5000)
        # normal approximation: n/2 - 1.96*sqrt(n)/2 ~ 2430.7
        self.assertTrue(2425 <= j <= 2435, j)

    def test_speedup_summary(self):
        base = [2.0] * 20
        cand = [1.0] * 20
        s = tr.speedup_summary(base, cand)
        self.assertAlmostEqual(s["speedup"], 2.0)
        self.assertAlmostEqual(s["ci_low"], 2.0)
        self.assertAlmostEqual(s["ci_high"], 2.0)
        self.assertAlmostEqual(s["spread"], 0.0)
        self.assertTrue(s["ci_exact"])

        base = [2.0 + 0.01 * ((i * 7) % 11) for i in range(30)]
        cand = [1.0 + 0.01 * ((i * 5) % 13) for i in range(30)]
        s = tr.speedup_summary(base, cand)
        self.assertLessEqual(s["ci_low"], s["speedup"])
        self.assertGreaterEqual(s["ci_high"], s["speedup"])
        self.assertAlmostEqual(s["spread"], (s["ci_high"] - s["ci_low"]) / 2 / s["speedup"])
        self.assertTrue(1.8 < s["speedup"] < 2.2)

        s = tr.speedup_summary([1.0, 1.1], [1.0, 1.2])
        self.assertFalse(s["ci_exact"])
        with self.assertRaises(ValueError):
            tr.speedup_summary([1.0], [1.0, 2.0])

    def test_stop_reason(self):
        sr = tr.stop_reason
        # converged only after min_reps and with an exact interval
        self.assertIsNone(sr(5, 10, 200, 0.001, 0.01, 10.0, 3000.0))
        self.assertEqual(sr(10, 10, 200, 0.005, 0.01, 10.0, 3000.0), "converged")
        self.assertIsNone(sr(10, 10, 200, 0.005, 0.01, 10.0, 3000.0, ci_exact=False))
        self.assertIsNone(sr(10, 10, 200, 0.02, 0.01, 10.0, 3000.0))
        self.assertIsNone(sr(10, 10, 200, None, 0.01, 10.0, 3000.0))
        self.assertEqual(sr(200, 10, 200, 0.02, 0.01, 10.0, 3000.0), "max_reps")
        self.assertEqual(sr(200, 10, 200, 0.005, 0.01, 10.0, 3000.0), "converged")
        self.assertEqual(sr(37, 10, 200, 0.02, 0.01, 3000.0, 3000.0), "max_time")
        # max_time can end the loop before min_reps, but not before one pair
        self.assertEqual(sr(2, 10, 200, None, 0.01, 5000.0, 3000.0), "max_time")
        self.assertIsNone(sr(0, 10, 200, None, 0.01, 5000.0, 3000.0))

    def test_abba_order(self):
        self.assertEqual([tr.abba_order(i) for i in range(4)],
                         [(0, 1), (1, 0), (0, 1), (1, 0)])

    def test_lower_median(self):
        self.assertEqual(tr.lower_median([4.0, 1.0, 3.0, 2.0]), 2.0)
        self.assertEqual(tr.lower_median([3.0, 1.0, 2.0]), 2.0)


class ValidationTests(unittest.TestCase):

    def test_parse_init(self):
        self.assertEqual(tr.parse_init("randn"), ("randn", None, None))
        self.assertEqual(tr.parse_init("randint:-3:7"), ("randint", -3, 7))
        for bad in ("gauss", "randint:3", "randint:a:b", "randint:5:5", 3):
            with self.assertRaises(tr.RequestError):
                tr.parse_init(bad)

    def test_parse_measure_defaults_and_fields(self):
        req = {k: v for k, v in MEASURE.items() if k not in (
            "args", "kwargs", "outputs", "seed", "rtol", "atol", "warmup", "min_reps",
            "max_reps", "target_rel_ci", "max_time_ms", "flush_l2")}
        cfg = tr.parse_measure_request(req)
        self.assertEqual(cfg["args"], ["x", "alpha"])  # all inputs by default
        self.assertEqual(cfg["outputs"], "return")
        self.assertEqual(cfg["min_reps"], 10)
        self.assertEqual(cfg["max_reps"], 200)
        self.assertTrue(cfg["flush_l2"])
        self.assertEqual(cfg["inputs"][0]["init"], ("randn", None, None))
        self.assertTrue(os.path.isabs(cfg["base"]["path"]))

    def test_parse_measure_rejects(self):
        def bad(**over):
            with self.assertRaises(tr.RequestError):
                tr.parse_measure_request(dict(MEASURE, **over))
        bad(outputs=["nope"])
        bad(outputs=["alpha"])  # a scalar cannot be an output
        bad(outputs=[])
        bad(kwargs={"x": "nope"})
        bad(inputs=[{"name": "x", "shape": [2, -1]}])
        bad(inputs=[{"name": "x", "shape": [2]}, {"name": "x", "shape": [2]}])
        bad(inputs=[{"name": "i", "dtype": "int32", "shape": [2], "init": "randn"}])
        bad(inputs=[{"name": "s", "kind": "scalar"}])
        bad(target_rel_ci=0)
        bad(max_time_ms=-1)
        bad(warmup=1.5)
        bad(flush_l2="yes")
        bad(base={"path": "x.py"})
        tr.parse_measure_request(dict(MEASURE, outputs=["x"], args=["x", 3, None]))

    def test_json_safe(self):
        out = tr.encode_response({"a": float("nan"), "b": [float("inf"), 1.5], "c": (1, 2)})
        self.assertEqual(json.loads(out), {"a": None, "b": [None, 1.5], "c": [1, 2]})

    def test_fatal_markers(self):
        self.assertTrue(tr.is_fatal_cuda_error(
            "RuntimeError: CUDA error: an illegal memory access was encountered"))
        self.assertFalse(tr.is_fatal_cuda_error("AssertionError: x.is_cuda"))


if __name__ == "__main__":
    unittest.main()
