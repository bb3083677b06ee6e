#!/usr/bin/env python3
"""kforecast Triton measurement runner.

Embedded in the kforecast server (include_str!) and run with the user's
``python3``.  It measures whether a candidate version of a Triton wrapper is
faster than a base version, after checking that both compute the same result.

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

import contextlib
import importlib.util
import json
import math
import os
import statistics
import sys
import time
import traceback

RUNNER_NAME = "kforecast-triton-runner"
RUNNER_VERSION = "1"
PROTOCOL_VERSION = 1

CI_CONFIDENCE = 0.95
FLUSH_BYTES = 256 * 1024 * 1024

DTYPE_NAMES = (
    "float32", "float16", "bfloat16", "float64",
    "int32", "int64", "int8", "uint8", "bool",
)
FLOAT_DTYPES = ("float32", "float16", "bfloat16", "float64")
INIT_KINDS = ("randn", "rand", "zeros", "ones", "arange")

DEFAULTS = {
    "seed": 0,
    "rtol": 1e-4,
    "atol": 1e-5,
    "warmup": 3,
    "min_reps": 10,
    "max_reps": 200,
    "target_rel_ci": 0.01,
    "max_time_ms": 3000.0,
    "flush_l2": True,
    # do_bench only
    "rounds": 3,
    "bench_warmup_ms": 25,
    "bench_rep_ms": 100,
}

FATAL_MARKERS = (
    "illegal memory access",
    "device-side assert",
    "unspecified launch failure",
    "misaligned address",
    "illegal instruction",
    "CUDA error: an illegal",
    "cudaErrorIllegalAddress",
    "CUDA_ERROR_ILLEGAL_ADDRESS",
    "CUDA_ERROR_LAUNCH_FAILED",
    "uncorrectable ECC",
)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

class RequestError(Exception):
    """The request itself is malformed (status: error, no version)."""


class NoGpu(Exception):
    """torch/triton missing or no CUDA device (status: no_gpu)."""


class VersionError(Exception):
    """Something failed in one version's code (status: error)."""

    def __init__(self, version, stage, message):
        super().__init__(message)
        self.version = version
        self.stage = stage
        self.message = message


def traceback_tail(max_lines=12, max_chars=4000):
    """The last lines of the current exception's traceback, as one string."""
    text = traceback.format_exc().rstrip()
    lines = text.splitlines()
    tail = "\n".join(lines[-max_lines:])
    if len(tail) > max_chars:
        tail = tail[-max_chars:]
    return tail


def is_fatal_cuda_error(message):
    low = (message or "").lower()
    return any(m.lower() in low for m in FATAL_MARKERS)


# ---------------------------------------------------------------------------
# Pure statistics (no torch; unit-tested directly)
# ---------------------------------------------------------------------------

def percentile(values, q):
    """Linear-interpolation percentile (numpy's default), q in [0, 100]."""
    xs = sorted(values)
    if not xs:
        raise ValueError("percentile of an empty sequence")
    if len(xs) == 1:
        return float(xs[0])
    pos = (len(xs) - 1) * (q / 100.0)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(xs) - 1)
    frac = pos - lo
    return float(xs[lo] + (xs[hi] - xs[lo]) * frac)


def summarize_times(times_ms):
    """Per-version summary: median, p10, p90, min, mean, n (all in ms)."""
    if not times_ms:
        return {"median_ms": None, "p10_ms": None, "p90_ms": None,
                "min_ms": None, "mean_ms": None, "n": 0}
    return {
        "median_ms": float(statistics.median(times_ms)),
        "p10_ms": percentile(times_ms, 10),
        "p90_ms": percentile(times_ms, 90),
        "min_ms": float(min(times_ms)),
        "mean_ms": float(statistics.fmean(times_ms)),
        "n": len(times_ms),
    }


def _log_binom_half_pmf(n, i):
    return (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
            - n * math.log(2.0))


def median_ci_rank(n, confidence=CI_CONFIDENCE):
    """1-based rank j of the distribution-free CI [x_(j), x_(n-j+1)] for the median.

    j is the largest rank with P(Bin(n, 1/2) <= j-1) <= (1-confidence)/2, so
    the interval covers the median with probability >= confidence.  Returns 0
    when no such rank exists (n too small: for 95 % that is n < 6).
    """
    if n <= 0:
        return 0
    tail = (1.0 - confidence) / 2.0
    cdf = 0.0
    j = 0
    # P(B <= j-1) for j = 1, 2, ...; ranks beyond the middle are meaningless.
    for i in range(0, (n + 1) // 2):
        cdf += math.exp(_log_binom_half_pmf(n, i))
        if cdf <= tail * (1.0 + 1e-12):
            j = i + 1
        else:
            break
    return j


def median_ci(values, confidence=CI_CONFIDENCE):
    """Order-statistic confidence interval of the median.

    Returns (low, high, exact).  exact is False when there are too few values
    for an interval of the requested confidence; then (min, max) is returned.
    """
    xs = sorted(values)
    n = len(xs)
    if n == 0:
        raise ValueError("median_ci of an empty sequence")
    j = median_ci_rank(n, confidence)
    if j == 0:
        return float(xs[0]), float(xs[-1]), False
    return float(xs[j - 1]), float(xs[n - j]), True


def speedup_summary(base_ms, cand_ms, confidence=CI_CONFIDENCE):
    """Speedup of candidate over base from paired per-rep times.

    speedup = median(base) / median(cand).  The CI is the order-statistic CI of
    the median of the per-pair ratios base_i / cand_i, widened if needed so
    that it contains the point estimate.  spread = (high - low) / 2 / speedup.
    """
    if len(base_ms) != len(cand_ms):
        raise ValueError("base and candidate need the same number of reps")
    if not base_ms:
        raise ValueError("no reps")
    mb = statistics.median(base_ms)
    mc = statistics.median(cand_ms)
    if mc <= 0 or mb <= 0:
        return {"speedup": None, "ci_low": None, "ci_high": None,
                "spread": None, "ci_exact": False, "ratio_median": None}
    speedup = mb / mc
    ratios = [b / c for b, c in zip(base_ms, cand_ms) if c > 0]
    if not ratios:
        return {"speedup": speedup, "ci_low": None, "ci_high": None,
                "spread": None, "ci_exact": False, "ratio_median": None}
    lo, hi, exact = median_ci(ratios, confidence)
    lo = min(lo, speedup)
    hi = max(hi, speedup)
    return {
        "speedup": speedup,
        "ci_low": lo,
        "ci_high": hi,
        "spread": (hi - lo) / 2.0 / speedup,
        "ci_exact": exact,
        "ratio_median": float(statistics.median(ratios)),
    }


def stop_reason(n, min_reps, max_reps, rel_half_width, target_rel_ci,
                elapsed_ms, max_time_ms, ci_exact=True):
    """Why the adaptive loop stops after n pairs, or None to go on.

    "converged": n >= min_reps and the CI's relative half-width <= target
    (only with an exact interval); "max_reps": n >= max_reps; "max_time":
    elapsed_ms >= max_time_ms (after at least one pair).
    """
    if (n >= min_reps and ci_exact and rel_half_width is not None
            and rel_half_width <= target_rel_ci):
        return "converged"
    if n >= max_reps:
        return "max_reps"
    if n >= 1 and elapsed_ms >= max_time_ms:
        return "max_time"
    return None


def abba_order(rep_index):
    """(first, second) version for a rep: 0=base, 1=candidate; AB BA AB BA..."""
    return (0, 1) if rep_index % 2 == 0 else (1, 0)


def lower_median(values):
    """torch.median's convention (lower of the two middles), as do_bench uses."""
    xs = sorted(values)
    return float(xs[(len(xs) - 1) // 2])


# ---------------------------------------------------------------------------
# Pure request validation (no torch)
# ---------------------------------------------------------------------------

def parse_init(init):
    """Validate an init spec; returns (kind, lo, hi)."""
    if not isinstance(init, str):
        raise RequestError("init must be a string, got %r" % (init,))
    if init in INIT_KINDS:
        return (init, None, None)
    if init.startswith("randint:"):
        parts = init.split(":")
        if len(parts) != 3:
            raise RequestError("init %r: expected randint:LO:HI" % init)
        try:
            lo, hi = int(parts[1]), int(parts[2])
        except ValueError:
            raise RequestError("init %r: LO and HI must be integers" % init)
        if hi <= lo:
            raise RequestError("init %r: HI must be greater than LO" % init)
        return ("randint", lo, hi)
    raise RequestError("unknown init %r (one of %s, randint:LO:HI)"
                       % (init, ", ".join(INIT_KINDS)))


def _num(req, key, kind, minimum=None, exclusive_min=False):
    v = req.get(key, DEFAULTS[key])
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RequestError("%s must be a number, got %r" % (key, v))
    if kind is int:
        if isinstance(v, float):
            if not v.is_integer():
                raise RequestError("%s must be an integer, got %r" % (key, v))
            v = int(v)
    else:
        v = float(v)
        if not math.isfinite(v):
            raise RequestError("%s must be finite" % key)
    if minimum is not None:
        if exclusive_min and not v > minimum:
            raise RequestError("%s must be > %s, got %r" % (key, minimum, v))
        if not exclusive_min and not v >= minimum:
            raise RequestError("%s must be >= %s, got %r" % (key, minimum, v))
    return v


def _version_spec(req, key):
    spec = req.get(key)
    if not isinstance(spec, dict):
        raise RequestError("%s must be an object {\"path\": ..., \"wrapper\": ...}" % key)
    path = spec.get("path")
    wrapper = spec.get("wrapper")
    if not isinstance(path, str) or not path:
        raise RequestError("%s.path must be a non-empty string" % key)
    if not isinstance(wrapper, str) or not wrapper:
        raise RequestError("%s.wrapper must be a non-empty string" % key)
    return {"path": os.path.abspath(path), "wrapper": wrapper}


def parse_measure_request(req):
    """Validate a measure/do_bench request; returns a plain config dict."""
    cfg = {"base": _version_spec(req, "base"),
           "candidate": _version_spec(req, "candidate")}

    inputs = req.get("inputs", [])
    if not isinstance(inputs, list):
        raise RequestError("inputs must be a list")
    names = []
    parsed = []
    for k, spec in enumerate(inputs):
        if not isinstance(spec, dict):
            raise RequestError("inputs[%d] must be an object" % k)
        name = spec.get("name")
        if not isinstance(name, str) or not name:
            raise RequestError("inputs[%d].name must be a non-empty string" % k)
        if name in names:
            raise RequestError("duplicate input name %r" % name)
        kind = spec.get("kind", "tensor")
        if kind == "tensor":
            dtype = spec.get("dtype", "float32")
            if dtype not in DTYPE_NAMES:
                raise RequestError("input %r: unknown dtype %r (one of %s)"
                                   % (name, dtype, ", ".join(DTYPE_NAMES)))
            shape = spec.get("shape")
            if (not isinstance(shape, list)
                    or any(isinstance(d, bool) or not isinstance(d, int) or d < 0
                           for d in shape)):
                raise RequestError("input %r: shape must be a list of non-negative integers"
                                   % name)
            init = parse_init(spec.get("init", "randn"))
            if init[0] in ("randn", "rand") and dtype not in FLOAT_DTYPES and dtype != "bool":
                raise RequestError("input %r: init %s needs a floating dtype (use randint:LO:HI for %s)"
                                   % (name, init[0], dtype))
            parsed.append({"name": name, "kind": "tensor", "dtype": dtype,
                           "shape": list(shape), "init": init})
        elif kind == "scalar":
            if "value" not in spec:
                raise RequestError("input %r: scalar needs a value" % name)
            parsed.append({"name": name, "kind": "scalar", "value": spec["value"]})
        else:
            raise RequestError("input %r: unknown kind %r (tensor or scalar)" % (name, kind))
        names.append(name)
    cfg["inputs"] = parsed

    args = req.get("args", names)
    if not isinstance(args, list):
        raise RequestError("args must be a list of input names")
    for a in args:
        if isinstance(a, str) and a not in names:
            raise RequestError("args: unknown input name %r" % a)
        if isinstance(a, (dict, list)):
            raise RequestError("args: entries are input names or JSON scalars")
    kwargs = req.get("kwargs", {})
    if not isinstance(kwargs, dict):
        raise RequestError("kwargs must be an object {param: input name}")
    for k, a in kwargs.items():
        if isinstance(a, str) and a not in names:
            raise RequestError("kwargs[%r]: unknown input name %r" % (k, a))
        if isinstance(a, (dict, list)):
            raise RequestError("kwargs: values are input names or JSON scalars")
    cfg["args"] = list(args)
    cfg["kwargs"] = dict(kwargs)

    outputs = req.get("outputs", "return")
    if outputs != "return":
        if not isinstance(outputs, list) or not outputs:
            raise RequestError('outputs must be "return" or a non-empty list of input names')
        for o in outputs:
            if o not in names:
                raise RequestError("outputs: unknown input name %r" % (o,))
            if next(p for p in parsed if p["name"] == o)["kind"] != "tensor":
                raise RequestError("outputs: %r is not a tensor input" % (o,))
    cfg["outputs"] = outputs

    cfg["seed"] = _num(req, "seed", int)
    cfg["rtol"] = _num(req, "rtol", float, 0.0)
    cfg["atol"] = _num(req, "atol", float, 0.0)
    cfg["warmup"] = _num(req, "warmup", int, 0)
    cfg["min_reps"] = _num(req, "min_reps", int, 1)
    cfg["max_reps"] = _num(req, "max_reps", int, 1)
    if cfg["max_reps"] < cfg["min_reps"]:
        raise RequestError("max_reps (%d) must be >= min_reps (%d)"
                           % (cfg["max_reps"], cfg["min_reps"]))
    cfg["target_rel_ci"] = _num(req, "target_rel_ci", float, 0.0, exclusive_min=True)
    cfg["max_time_ms"] = _num(req, "max_time_ms", float, 0.0, exclusive_min=True)
    flush = req.get("flush_l2", DEFAULTS["flush_l2"])
    if not isinstance(flush, bool):
        raise RequestError("flush_l2 must be true or false")
    cfg["flush_l2"] = flush
    cfg["rounds"] = _num(req, "rounds", int, 1)
    cfg["bench_warmup_ms"] = _num(req, "bench_warmup_ms", float, 0.0, exclusive_min=True)
    cfg["bench_rep_ms"] = _num(req, "bench_rep_ms", float, 0.0, exclusive_min=True)
    return cfg


def json_safe(obj):
    """Replace NaN/Inf by None (JSON has no such numbers), recursively."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    return str(obj)


def encode_response(obj):
    return json.dumps(json_safe(obj), allow_nan=False, separators=(",", ":"))


# ---------------------------------------------------------------------------
# torch / triton (lazy)
# ---------------------------------------------------------------------------

_TORCH = None
_FLUSH_BUF = None


def get_torch():
    """Import torch and check for a CUDA device; raises NoGpu saying which."""
    global _TORCH
    if _TORCH is not None:
        return _TORCH
    try:
        with contextlib.redirect_stdout(sys.stderr):
            import torch  # noqa: F401
    except Exception as e:  # ImportError, or a broken install
        raise NoGpu("torch is not installed for %s (%s: %s)"
                    % (sys.executable or "python3", type(e).__name__, e))
    if not torch.cuda.is_available():
        raise NoGpu("torch %s is installed but no CUDA device is available "
                    "(torch.version.cuda=%s, CUDA_VISIBLE_DEVICES=%s)"
                    % (torch.__version__, torch.version.cuda,
                       os.environ.get("CUDA_VISIBLE_DEVICES", "<unset>")))
    _TORCH = torch
    return torch


def get_triton():
    try:
        with contextlib.redirect_stdout(sys.stderr):
            import triton
            import triton.testing  # noqa: F401
    except Exception as e:
        raise NoGpu("triton is not installed for %s (%s: %s)"
                    % (sys.executable or "python3", type(e).__name__, e))
    return triton


def device_info():
    torch = get_torch()
    idx = torch.cuda.current_device()
    props = torch.cuda.get_device_properties(idx)
    info = {
        "index": idx,
        "name": props.name,
        "compute_capability": "%d.%d" % (props.major, props.minor),
        "memory_bytes": int(props.total_memory),
        "sm_count": int(getattr(props, "multi_processor_count", 0)) or None,
    }
    cuda_rt = torch.version.cuda
    driver_api = None
    try:
        v = int(torch._C._cuda_getDriverVersion())
        driver_api = "%d.%d" % (v // 1000, (v % 1000) // 10)
    except Exception:
        pass
    if driver_api is None:
        try:  # the driver's own answer, through libcuda
            import ctypes
            v = ctypes.c_int(0)
            if ctypes.CDLL("libcuda.so.1").cuDriverGetVersion(ctypes.byref(v)) == 0 and v.value:
                driver_api = "%d.%d" % (v.value // 1000, (v.value % 1000) // 10)
        except Exception:
            pass
    nvidia_driver = None
    try:
        with contextlib.redirect_stdout(sys.stderr):
            import pynvml  # type: ignore
            pynvml.nvmlInit()
            nvidia_driver = pynvml.nvmlSystemGetDriverVersion()
            if isinstance(nvidia_driver, bytes):
                nvidia_driver = nvidia_driver.decode()
    except Exception:
        pass
    parts = ["cuda %s" % cuda_rt]
    if driver_api:
        parts.append("driver api %s" % driver_api)
    if nvidia_driver:
        parts.append("nvidia %s" % nvidia_driver)
    info["driver"] = ", ".join(parts)
    info["cuda_runtime"] = cuda_rt
    info["cuda_driver_api"] = driver_api
    info["nvidia_driver"] = nvidia_driver
    info["torch"] = torch.__version__
    try:
        info["triton"] = get_triton().__version__
    except NoGpu:
        info["triton"] = None
    info["python"] = sys.version.split()[0]
    return info


def _torch_dtype(torch, name):
    return getattr(torch, name)


def build_inputs(cfg):
    """Fresh, deterministic inputs from cfg["seed"]: {name: value}."""
    torch = get_torch()
    gen = torch.Generator(device="cuda")
    gen.manual_seed(cfg["seed"])
    out = {}
    for spec in cfg["inputs"]:
        if spec["kind"] == "scalar":
            out[spec["name"]] = spec["value"]
            continue
        shape = tuple(spec["shape"])
        dtype = _torch_dtype(torch, spec["dtype"])
        kind, lo, hi = spec["init"]
        if kind == "randn":
            if spec["dtype"] == "bool":
                t = torch.randn(shape, generator=gen, device="cuda") > 0
            else:
                gdt = torch.float64 if spec["dtype"] == "float64" else torch.float32
                t = torch.randn(shape, generator=gen, device="cuda", dtype=gdt).to(dtype)
        elif kind == "rand":
            if spec["dtype"] == "bool":
                t = torch.rand(shape, generator=gen, device="cuda") < 0.5
            else:
                gdt = torch.float64 if spec["dtype"] == "float64" else torch.float32
                t = torch.rand(shape, generator=gen, device="cuda", dtype=gdt).to(dtype)
        elif kind == "zeros":
            t = torch.zeros(shape, device="cuda", dtype=dtype)
        elif kind == "ones":
            t = torch.ones(shape, device="cuda", dtype=dtype)
        elif kind == "arange":
            n = 1
            for d in shape:
                n *= d
            t = (torch.arange(n, device="cuda", dtype=torch.int64) % 1024).to(dtype).reshape(shape)
        elif kind == "randint":
            t = torch.randint(lo, hi, shape, generator=gen, device="cuda",
                              dtype=torch.int64).to(dtype)
        else:  # parse_init guards this
            raise RequestError("unknown init %r" % kind)
        out[spec["name"]] = t.contiguous()
    return out


def resolve_call(cfg, values):
    args = [values[a] if isinstance(a, str) else a for a in cfg["args"]]
    kwargs = {k: (values[a] if isinstance(a, str) else a) for k, a in cfg["kwargs"].items()}
    return args, kwargs


_MODULE_COUNTER = [0]


def load_version(role, spec, registered):
    """Import spec["path"] under a unique module name; return its wrapper."""
    path = spec["path"]
    if not os.path.isfile(path):
        raise VersionError(role, "import", "file not found: %s" % path)
    _MODULE_COUNTER[0] += 1
    stem = os.path.splitext(os.path.basename(path))[0]
    safe = "".join(c if c.isalnum() else "_" for c in stem)
    name = "_kforecast_%s_%d_%s" % (role, _MODULE_COUNTER[0], safe)
    directory = os.path.dirname(path)
    before = set(sys.modules)
    sys.path.insert(0, directory)
    try:
        spec_obj = importlib.util.spec_from_file_location(name, path)
        if spec_obj is None or spec_obj.loader is None:
            raise VersionError(role, "import", "cannot import %s as a Python module" % path)
        module = importlib.util.module_from_spec(spec_obj)
        sys.modules[name] = module
        registered.append(name)
        try:
            with contextlib.redirect_stdout(sys.stderr):
                spec_obj.loader.exec_module(module)
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            raise VersionError(role, "import", traceback_tail())
    finally:
        try:
            sys.path.remove(directory)
        except ValueError:
            pass
        # Sibling modules imported by this file are dropped from sys.modules so
        # that the other version's import of a same-named sibling loads its own.
        prefix = os.path.join(directory, "")
        for key in set(sys.modules) - before:
            if key == name:
                continue
            f = getattr(sys.modules.get(key), "__file__", None) or ""
            if f and os.path.abspath(f).startswith(prefix):
                sys.modules.pop(key, None)

    obj = module
    for part in spec["wrapper"].split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            break
    if obj is None or not callable(obj):
        public = sorted(k for k, v in vars(module).items()
                        if callable(v) and not k.startswith("_")
                        and getattr(v, "__module__", None) == name)
        raise VersionError(role, "wrapper", "%s has no callable %r (callables defined there: %s)"
                           % (path, spec["wrapper"], ", ".join(public) or "none"))
    return obj


def call_version(role, fn, cfg, values, stage="run"):
    torch = get_torch()
    args, kwargs = resolve_call(cfg, values)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            result = fn(*args, **kwargs)
            torch.cuda.synchronize()
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        raise VersionError(role, stage, traceback_tail())
    return result


def collect_outputs(role, cfg, result, values):
    """List of (label, value) to compare."""
    torch = get_torch()
    if cfg["outputs"] == "return":
        if result is None:
            raise VersionError(role, "outputs",
                               'wrapper returned None; with outputs="return" it must return a '
                               "tensor or a tuple/list of tensors (or set outputs to the names "
                               "of the inputs it writes)")
        if isinstance(result, torch.Tensor):
            return [("return", result)]
        if isinstance(result, (tuple, list)):
            return [("return[%d]" % i, r) for i, r in enumerate(result)]
        if isinstance(result, (int, float, bool)):
            return [("return", result)]
        raise VersionError(role, "outputs", "wrapper returned %s; expected a tensor or a "
                           "tuple/list of tensors" % type(result).__name__)
    return [(n, values[n]) for n in cfg["outputs"]]


def compare_outputs(base_outs, cand_outs, rtol, atol):
    """Correctness check of candidate against base; returns the check dict."""
    torch = get_torch()
    check = {"ok": True, "max_abs_err": 0.0, "max_rel_err": 0.0,
             "n_mismatch": 0, "n_elements": 0, "message": "outputs match"}
    if len(base_outs) != len(cand_outs):
        check.update(ok=False, max_abs_err=None, max_rel_err=None,
                     message="base returned %d outputs, candidate %d"
                     % (len(base_outs), len(cand_outs)))
        return check
    problems = []
    for (label, b), (_, c) in zip(base_outs, cand_outs):
        if not isinstance(b, torch.Tensor) or not isinstance(c, torch.Tensor):
            if isinstance(b, torch.Tensor) != isinstance(c, torch.Tensor):
                problems.append("%s: base is %s, candidate is %s"
                                % (label, type(b).__name__, type(c).__name__))
            elif isinstance(b, (int, float)) and isinstance(c, (int, float)):
                if not math.isclose(float(c), float(b), rel_tol=rtol, abs_tol=atol):
                    problems.append("%s: base %r, candidate %r" % (label, b, c))
            elif b != c:
                problems.append("%s: base %r, candidate %r" % (label, b, c))
            continue
        if tuple(b.shape) != tuple(c.shape):
            problems.append("%s: shape %s vs base %s" % (label, list(c.shape), list(b.shape)))
            continue
        if b.dtype != c.dtype:
            problems.append("%s: dtype %s vs base %s" % (label, c.dtype, b.dtype))
            continue
        if b.numel() == 0:
            continue
        wide = torch.float64 if b.dtype == torch.float64 else torch.float32
        bf = b.detach().to(wide)
        cf = c.detach().to(wide)
        check["n_elements"] += b.numel()
        b_fin = torch.isfinite(bf)
        c_fin = torch.isfinite(cf)
        bad_nonfinite = int((b_fin & ~c_fin).sum().item())
        if bad_nonfinite:
            problems.append("%s: %d NaN/Inf values where base is finite" % (label, bad_nonfinite))
        both = b_fin & c_fin
        diff = torch.where(both, (cf - bf).abs(), torch.zeros_like(bf))
        max_abs = float(diff.max().item())
        big = both & (bf.abs() > atol)
        rel = torch.where(big, diff / bf.abs().clamp_min(1e-300 if wide == torch.float64 else 1e-30),
                          torch.zeros_like(bf))
        max_rel = float(rel.max().item()) if big.any().item() else 0.0
        check["max_abs_err"] = max(check["max_abs_err"], max_abs)
        check["max_rel_err"] = max(check["max_rel_err"], max_rel)
        close = torch.isclose(cf, bf, rtol=rtol, atol=atol, equal_nan=True)
        n_bad = int((~close).sum().item())
        check["n_mismatch"] += n_bad
        if n_bad and not bad_nonfinite:
            problems.append("%s: %d of %d elements differ beyond rtol=%g atol=%g "
                            "(max abs err %.3g, max rel err %.3g)"
                            % (label, n_bad, b.numel(), rtol, atol, max_abs, max_rel))
    if problems:
        check["ok"] = False
        check["message"] = "; ".join(problems)[:2000]
    return check


def flush_buffer():
    global _FLUSH_BUF
    if _FLUSH_BUF is None:
        torch = get_torch()
        _FLUSH_BUF = torch.empty(FLUSH_BYTES, dtype=torch.int8, device="cuda")
    return _FLUSH_BUF


def timed_loop(fns, cfg):
    """ABBA-interleaved, L2-flushed, CUDA-event-timed adaptive loop."""
    torch = get_torch()
    roles = ("base", "candidate")
    buf = flush_buffer() if cfg["flush_l2"] else None
    t0 = time.perf_counter()
    for _ in range(cfg["warmup"]):
        for v in (0, 1):
            try:
                with contextlib.redirect_stdout(sys.stderr):
                    fns[v]()
            except BaseException as e:
                if isinstance(e, KeyboardInterrupt):
                    raise
                raise VersionError(roles[v], "warmup", traceback_tail())
    torch.cuda.synchronize()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in (0, 1)]
    times = ([], [])
    n = 0
    summary = None
    reason = None
    while reason is None:
        for v in abba_order(n):
            if buf is not None:
                buf.zero_()
            start, end = events[v]
            try:
                with contextlib.redirect_stdout(sys.stderr):
                    start.record()
                    fns[v]()
                    end.record()
            except BaseException as e:
                if isinstance(e, KeyboardInterrupt):
                    raise
                raise VersionError(roles[v], "timing", traceback_tail())
        try:
            torch.cuda.synchronize()
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            raise VersionError(None, "timing", traceback_tail())
        for v in (0, 1):
            times[v].append(events[v][0].elapsed_time(events[v][1]))
        n += 1
        summary = speedup_summary(times[0], times[1])
        reason = stop_reason(n, cfg["min_reps"], cfg["max_reps"], summary["spread"],
                             cfg["target_rel_ci"], (time.perf_counter() - t0) * 1000.0,
                             cfg["max_time_ms"], summary["ci_exact"])
    elapsed_ms = (time.perf_counter() - t0) * 1000.0
    return times, summary, reason, n, elapsed_ms


def do_bench_loop(fns, cfg):
    """Reference harness: triton.testing.do_bench, rounds interleaved ABBA."""
    triton = get_triton()
    roles = ("base", "candidate")
    t0 = time.perf_counter()
    per_round = ([], [])
    pooled = ([], [])
    modes = []
    for r in range(cfg["rounds"]):
        for v in abba_order(r):
            try:
                with contextlib.redirect_stdout(sys.stderr):
                    try:
                        res = triton.testing.do_bench(fns[v], warmup=cfg["bench_warmup_ms"],
                                                      rep=cfg["bench_rep_ms"], return_mode="all")
                        mode = "all"
                    except (TypeError, ValueError, AssertionError):
                        res = triton.testing.do_bench(fns[v], warmup=cfg["bench_warmup_ms"],
                                                      rep=cfg["bench_rep_ms"],
                                                      return_mode="median")
                        mode = "median"
            except BaseException as e:
                if isinstance(e, KeyboardInterrupt):
                    raise
                raise VersionError(roles[v], "do_bench", traceback_tail())
            modes.append(mode)
            if isinstance(res, (list, tuple)):
                samples = [float(x) for x in res]
                per_round[v].append(lower_median(samples))
                pooled[v].extend(samples)
            else:
                per_round[v].append(float(res))
                pooled[v].append(float(res))
    elapsed_ms = (time.perf_counter() - t0) * 1000.0
    stats = []
    for v in (0, 1):
        s = summarize_times(pooled[v])
        # The headline is do_bench's own statistic: torch.median of the samples
        # (lower middle) for one round, the median of round medians otherwise.
        s["median_ms"] = (per_round[v][0] if len(per_round[v]) == 1
                          else float(statistics.median(per_round[v])))
        s["round_medians_ms"] = per_round[v]
        stats.append(s)
    speedup = stats[0]["median_ms"] / stats[1]["median_ms"] if stats[1]["median_ms"] else None
    ci_low = ci_high = spread = None
    if speedup and cfg["rounds"] > 1:
        ratios = [b / c for b, c in zip(per_round[0], per_round[1]) if c > 0]
        ci_low = min(min(ratios), speedup)
        ci_high = max(max(ratios), speedup)
        spread = (ci_high - ci_low) / 2.0 / speedup
    return stats, speedup, ci_low, ci_high, spread, elapsed_ms, modes


def op_measure(req, harness):
    cfg = parse_measure_request(req)
    torch = get_torch()
    if harness == "do_bench":
        get_triton()
    device = device_info()
    registered = []
    try:
        fn_base = load_version("base", cfg["base"], registered)
        fn_cand = load_version("candidate", cfg["candidate"], registered)

        # --- correctness: each version on its own fresh inputs --------------
        def fresh_inputs():
            try:
                return build_inputs(cfg)
            except (RequestError, NoGpu):
                raise
            except BaseException as e:
                if isinstance(e, KeyboardInterrupt):
                    raise
                raise VersionError(None, "inputs", traceback_tail())

        torch.manual_seed(cfg["seed"])
        vals_base = fresh_inputs()
        res_base = call_version("base", fn_base, cfg, vals_base)
        outs_base = collect_outputs("base", cfg, res_base, vals_base)

        torch.manual_seed(cfg["seed"])
        vals_cand = fresh_inputs()
        res_cand = call_version("candidate", fn_cand, cfg, vals_cand)
        outs_cand = collect_outputs("candidate", cfg, res_cand, vals_cand)

        check = compare_outputs(outs_base, outs_cand, cfg["rtol"], cfg["atol"])
        del res_base, res_cand, outs_base, outs_cand
        resp = {"status": "ok", "harness": "events" if harness == "events" else "do_bench",
                "device": device}
        if not check["ok"]:
            resp["status"] = "wrong_result"
            resp["check"] = check
            resp["message"] = "candidate output differs from base: " + check["message"]
            return resp

        # In-place wrappers mutated their inputs: time on fresh ones.
        if cfg["outputs"] != "return":
            del vals_base, vals_cand
            vals_base = fresh_inputs()
            vals_cand = fresh_inputs()
        a_args, a_kwargs = resolve_call(cfg, vals_base)
        b_args, b_kwargs = resolve_call(cfg, vals_cand)
        fns = (lambda: fn_base(*a_args, **a_kwargs), lambda: fn_cand(*b_args, **b_kwargs))

        if harness == "events":
            times, summary, reason, n, elapsed = timed_loop(fns, cfg)
            resp["base"] = summarize_times(times[0])
            resp["candidate"] = summarize_times(times[1])
            resp["speedup"] = summary["speedup"]
            resp["ci_low"] = summary["ci_low"]
            resp["ci_high"] = summary["ci_high"]
            resp["spread"] = summary["spread"]
            resp["ci_kind"] = "median_ratio_order_stat_95" if summary["ci_exact"] else "ratio_range"
            resp["reps"] = n
            resp["stop_reason"] = reason
            resp["check"] = check
            resp["timing_ms"] = elapsed
        else:
            stats, speedup, lo, hi, spread, elapsed, modes = do_bench_loop(fns, cfg)
            resp["base"] = stats[0]
            resp["candidate"] = stats[1]
            resp["speedup"] = speedup
            resp["ci_low"] = lo
            resp["ci_high"] = hi
            resp["spread"] = spread
            resp["ci_kind"] = "round_range" if lo is not None else None
            resp["reps"] = cfg["rounds"]
            resp["do_bench_return_mode"] = modes[0] if modes else None
            resp["check"] = check
            resp["timing_ms"] = elapsed
        resp["flush_l2"] = cfg["flush_l2"]
        return resp
    finally:
        for name in registered:
            sys.modules.pop(name, None)
        try:
            torch.cuda.empty_cache()
        except Exception:
            pass


def op_health():
    return {"status": "ok", "device": device_info(), "runner_version": RUNNER_VERSION,
            "protocol": PROTOCOL_VERSION}


def version_info():
    return {"status": "ok", "runner": RUNNER_NAME, "version": RUNNER_VERSION,
            "protocol": PROTOCOL_VERSION, "python": sys.version.split()[0],
            "executable": sys.executable}


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
