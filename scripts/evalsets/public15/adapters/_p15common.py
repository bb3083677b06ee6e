"""Helpers shared by public set 15's adapters (kforecast's own code, copied into the set).

Every version of a family is a Python module with the LeetGPU challenge's interface: either
the official challenge module (class `Challenge` with `reference_impl(...)`) or a solution
module with `solve(...)`; both take the challenge's arguments in the same order and write
the output tensor(s) in place. Older solutions take raw device pointers (`solve(input_ptr:
int, ...)`, as LeetGPU's Triton harness once passed them): for those the adapter passes
`tensor.data_ptr()`.
"""

import hashlib
import importlib.util
import inspect
import os
import sys

import torch

SET_ROOT = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join(SET_ROOT, "_vendor")


def load_module(path):
    """Imports the program at `path` under a name unique to the path, with `_vendor/` (the
    official `core.challenge_base`) importable."""
    if VENDOR not in sys.path:
        sys.path.insert(0, VENDOR)
    name = "kfp15_" + hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def entry(path):
    """(callable, raw) for the version at `path`: raw when its solve takes device pointers."""
    m = load_module(path)
    if hasattr(m, "Challenge"):
        return m.Challenge().reference_impl, False
    if not hasattr(m, "solve"):
        raise RuntimeError(f"{os.path.basename(path)} has neither Challenge nor solve")
    params = list(inspect.signature(m.solve).parameters.values())
    raw = bool(params) and params[0].annotation is int
    return m.solve, raw


def build(path, outputs):
    """fn(*args) runs the version on the challenge's arguments and returns the output
    argument(s) (`outputs`: their positions)."""
    f, raw = entry(path)

    def fn(*args):
        call = [a.data_ptr() if raw and isinstance(a, torch.Tensor) else a for a in args]
        f(*call)
        outs = tuple(args[i] for i in outputs)
        return outs[0] if len(outs) == 1 else outs

    return fn


def gen(seed):
    return torch.Generator(device="cuda").manual_seed(seed)
