"""The Triton runner's GPU half: torch and triton imported lazily, the device, the
inputs, loading and calling each version, comparing outputs, the timing loops and the
measure operation (see triton_runner.py)."""

import contextlib
import importlib.util
import math
import os
import statistics
import sys
import time

from kforecast_runner_common import (FLUSH_BYTES, NoGpu, PROTOCOL_VERSION, RUNNER_NAME, RUNNER_VERSION, RequestError, VersionError, traceback_tail)
from kforecast_runner_stats import (abba_order, lower_median, speedup_summary, stop_reason, summarize_times)
from kforecast_runner_request import parse_measure_request


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
