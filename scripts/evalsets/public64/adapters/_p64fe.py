"""Shared by the public64 adapters (kforecast's own code; pub64.py copies it into the set's root).

- `load(path)`: imports a version with its family folder as a package, so the source's own
  relative imports (`from .task import ...`, `from .utils import ...`) resolve to the helpers
  copied beside it; the package is named after the family folder.
- `build(path, call)`: the version's `kf_run` wrapped so that the process-wide matmul settings a
  version changes at import (float32 matmul precision / TF32, cuDNN TF32 and benchmark mode, SDPA
  backends) apply to its own calls only: they are put back after the import and around every call,
  since the harness times all versions of a family in one process.
"""

import importlib.util
import os
import re
import sys
import types

import torch


def load(path):
    path = os.path.abspath(path)
    fam_dir = os.path.dirname(path)
    pkg = "_p64_" + re.sub(r"\W", "_", os.path.basename(fam_dir))
    if pkg not in sys.modules:
        mod = types.ModuleType(pkg)
        mod.__path__ = [fam_dir]
        sys.modules[pkg] = mod
    name = pkg + "." + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    return mod


def _get():
    b = torch.backends
    return (torch.get_float32_matmul_precision(), b.cudnn.allow_tf32, b.cudnn.benchmark,
            b.cuda.flash_sdp_enabled(), b.cuda.mem_efficient_sdp_enabled(), b.cuda.math_sdp_enabled())


def _set(state):
    prec, cudnn_tf32, bench, flash, mem, math_ = state
    b = torch.backends
    torch.set_float32_matmul_precision(prec)
    b.cudnn.allow_tf32 = cudnn_tf32
    b.cudnn.benchmark = bench
    b.cuda.enable_flash_sdp(flash)
    b.cuda.enable_mem_efficient_sdp(mem)
    b.cuda.enable_math_sdp(math_)


def build(path, call):
    """fn(*inputs) = call(version's kf_run, *inputs) under the version's own settings."""
    before = _get()
    mod = load(path)
    own = _get()
    _set(before)
    entry = mod.kf_run

    def fn(*inputs):
        prev = _get()
        _set(own)
        try:
            return call(entry, *inputs)
        finally:
            _set(prev)

    return fn
