"""The Triton runner's request validation: a measure request read into a checked
configuration, and responses encoded as JSON (pure; see triton_runner.py)."""

import json
import math
import os

from kforecast_runner_common import DEFAULTS, DTYPE_NAMES, FLOAT_DTYPES, INIT_KINDS, RequestError


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
