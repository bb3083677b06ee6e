#!/usr/bin/env python3
"""kforecast Triton measurement runner.

Embedded in the kforecast server (include_str!) with the modules it imports
(``kforecast_runner_*.py``: constants and errors, statistics, request
validation, the torch/triton half) and run with the user's ``python3`` as one
``python -c`` script.  It
measures whether a candidate version of a Triton wrapper is faster than a base
version, after checking that both compute the same result.

Protocol (JSON Lines, one process serves many jobs):

* stdin: one JSON object per line (a request).  Blank lines are ignored.
* stdout: exactly one JSON object per request line, flushed at once.  Nothing
  else is ever written to stdout: file descriptor 1 is re-pointed at stderr at
  start-up (so prints from user code, Triton or CUDA ``printf`` go to stderr)
  and the protocol writes to a private duplicate of the original stdout.
* Every response has ``id`` (echoed from the request, null if unreadable) and
  ``status``: ``ok``, ``wrong_result``, ``error`` or ``no_gpu``.
* Ops: ``measure`` (CUDA-event harness, ABBA interleaving, L2 flush, adaptive
  repetitions), ``do_bench`` (triton.testing.do_bench as the reference
  harness), ``health``, ``version``, ``shutdown``.
* A response with ``"fatal": true`` means the CUDA context is unusable (for
  example an illegal memory access); the runner exits (code 3) right after
  writing it and the caller should start a fresh process.

Command line: ``--version``, ``--health``, ``--selftest`` (see ``main``).

torch and triton are imported lazily so that ``--version``/``--health`` and the
protocol layer work (and report ``no_gpu``) where they are not installed.
"""

import json
import os
import sys

# The runner's other modules lie beside this file. The server runs it as one `python -c`
# script with those modules already in sys.modules (worker/triton.rs). What the tests read
# through this module (test_triton_runner.py) is imported here too.
if "__file__" in globals():
    sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))

from kforecast_runner_common import (
    NoGpu, PROTOCOL_VERSION, RequestError, VersionError, is_fatal_cuda_error, traceback_tail)
from kforecast_runner_stats import (
    abba_order, lower_median, median_ci, median_ci_rank, percentile, speedup_summary, stop_reason, summarize_times)
from kforecast_runner_request import (
    encode_response, parse_init, parse_measure_request)
from kforecast_runner_torch import (
    op_health, op_measure, version_info)


# ---------------------------------------------------------------------------
# Request dispatch
# ---------------------------------------------------------------------------

def handle_line(line):
    """Handle one request line; returns (response dict, should_exit)."""
    rid = None
    try:
        try:
            req = json.loads(line)
        except ValueError as e:
            return {"id": None, "status": "error",
                    "message": "invalid JSON request: %s" % e}, False
        if not isinstance(req, dict):
            return {"id": None, "status": "error",
                    "message": "request must be a JSON object, got %s" % type(req).__name__}, False
        rid = req.get("id")
        op = req.get("op")
        if op == "measure":
            resp = op_measure(req, "events")
        elif op == "do_bench":
            resp = op_measure(req, "do_bench")
        elif op == "health":
            resp = op_health()
        elif op == "version":
            resp = version_info()
        elif op == "shutdown":
            return {"id": rid, "status": "ok", "message": "bye"}, True
        else:
            return {"id": rid, "status": "error",
                    "message": "unknown op %r (measure, do_bench, health, version, shutdown)"
                    % (op,)}, False
        out = {"id": rid}
        out.update(resp)
        return out, False
    except RequestError as e:
        return {"id": rid, "status": "error", "message": "bad request: %s" % e}, False
    except NoGpu as e:
        return {"id": rid, "status": "no_gpu", "message": str(e)}, False
    except VersionError as e:
        fatal = is_fatal_cuda_error(e.message)
        resp = {"id": rid, "status": "error", "version": e.version, "stage": e.stage,
                "message": e.message}
        if fatal:
            resp["fatal"] = True
        return resp, fatal
    except Exception:
        msg = traceback_tail()
        fatal = is_fatal_cuda_error(msg)
        resp = {"id": rid, "status": "error", "version": None, "stage": "runner",
                "message": "runner error: " + msg}
        if fatal:
            resp["fatal"] = True
        return resp, fatal


def _protocol_stream():
    """A private stdout for responses; fd 1 then points at stderr."""
    sys.stdout.flush()
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return proto


def emit(stream, obj):
    stream.write(encode_response(obj) + "\n")
    stream.flush()


def serve(proto):
    try:
        sys.stdin.reconfigure(errors="replace")
    except Exception:
        pass
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0
        if not line.strip():
            continue
        resp, should_exit = handle_line(line)
        emit(proto, resp)
        if should_exit:
            return 3 if resp.get("fatal") else 0


SELFTEST_BASE = '''
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


def add(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK, num_warps=WARPS)
    return out
'''


def selftest(proto):
    import tempfile
    d = tempfile.mkdtemp(prefix="kforecast_selftest_")
    paths = {}
    for name, block, warps, op in (("base", 64, 1, "+"), ("cand", 1024, 4, "+"),
                                   ("wrong", 1024, 4, "-")):
        src = SELFTEST_BASE.replace("BLOCK=BLOCK", "BLOCK=%d" % block) \
                           .replace("cdiv(n, BLOCK)", "cdiv(n, %d)" % block) \
                           .replace("num_warps=WARPS", "num_warps=%d" % warps)
        if op == "-":
            src = src.replace("mask=mask) + tl.load", "mask=mask) - tl.load")
        sub = os.path.join(d, name)
        os.makedirs(sub)
        paths[name] = os.path.join(sub, "vadd.py")
        with open(paths[name], "w") as f:
            f.write(src)
    common = {"op": "measure", "inputs": [
        {"name": "x", "kind": "tensor", "dtype": "float32", "shape": [1 << 24], "init": "randn"},
        {"name": "y", "kind": "tensor", "dtype": "float32", "shape": [1 << 24], "init": "rand"}],
        "args": ["x", "y"], "outputs": "return", "seed": 0, "rtol": 1e-6, "atol": 1e-6}
    ok_req = dict(common, id="selftest", base={"path": paths["base"], "wrapper": "add"},
                  candidate={"path": paths["cand"], "wrapper": "add"})
    bad_req = dict(common, id="selftest-wrong", base={"path": paths["base"], "wrapper": "add"},
                   candidate={"path": paths["wrong"], "wrapper": "add"})
    r1, _ = handle_line(json.dumps(ok_req))
    emit(proto, r1)
    if r1.get("status") == "no_gpu":
        return 2
    r2, _ = handle_line(json.dumps(bad_req))
    emit(proto, r2)
    good = r1.get("status") == "ok" and r2.get("status") == "wrong_result"
    return 0 if good else 1


def main(argv):
    proto = _protocol_stream()
    if "--version" in argv:
        emit(proto, version_info())
        return 0
    if "--health" in argv:
        resp, _ = handle_line('{"op": "health"}')
        resp.pop("id", None)
        emit(proto, resp)
        return 0 if resp.get("status") == "ok" else 2
    if "--selftest" in argv:
        return selftest(proto)
    if len(argv) > 0 and argv[0] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 0
    return serve(proto)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
