"""Helpers shared by the public set's adapters (kforecast's own code, copied into the set).

An adapter (`<family>/bench.py`) imports this module from the set's root. It
- compiles a CUDA C++ program file (kernel + the source's host launcher + a C entry point)
  with nvcc into a shared library and loads it with ctypes;
- imports a Python program file (a library's Triton module, a KernelBench-style module)
  with the set's `_vendor/` folder on sys.path, so a library module's own imports of its
  package's helpers resolve to the vendored copy of that package.
"""

import ctypes
import hashlib
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

SET_ROOT = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join(SET_ROOT, "_vendor")
BUILD_DIR = os.environ.get("KF_PUBLIC_BUILD", os.path.join(tempfile.gettempdir(), "kf-public-build"))


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def nvcc_shared(path, includes=(), flags=()):
    """Compiles the .cu program at `path` into a shared library (cached by content) and
    returns the loaded ctypes library."""
    with open(path, "rb") as f:
        src = f.read()
    cmd_flags = ["-O3", "-std=c++17", "-arch=sm_90", "-shared", "-Xcompiler", "-fPIC", *flags]
    for inc in includes:
        cmd_flags += ["-I", inc]
    key = hashlib.sha256(src + " ".join(cmd_flags).encode()).hexdigest()[:20]
    os.makedirs(BUILD_DIR, exist_ok=True)
    base = re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    so = os.path.join(BUILD_DIR, f"{base}-{key}.so")
    if not os.path.exists(so):
        tmp = f"{so}.{os.getpid()}.tmp"
        cmd = ["nvcc", *cmd_flags, "-o", tmp, path]
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            raise RuntimeError(f"nvcc failed on {path}:\n{res.stderr[-3000:]}")
        os.replace(tmp, so)
    return ctypes.CDLL(so)


def load_module(path):
    """Imports the Python program at `path` under a name unique to the path."""
    if VENDOR not in sys.path:
        sys.path.insert(0, VENDOR)
    name = "kfprog_" + hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def check(rc, what):
    if rc != 0:
        raise RuntimeError(f"{what}: CUDA error {rc}")


def first(out):
    """A library function that returns (y, saved statistics...) gives y."""
    return out[0] if isinstance(out, (tuple, list)) else out


def build_entry(path, entries):
    """Imports the program at `path` and returns the call its family's adapter names for it
    (entries: file name -> function(module) -> fn(*inputs))."""
    name = os.path.basename(path)
    if name not in entries:
        raise KeyError(f"the adapter has no entry for {name}")
    return entries[name](load_module(path))


def kernelbench_model(module):
    """A KernelBench-style module: ModelNew when it has one, else Model, built with its
    get_init_inputs() and moved to the GPU."""
    cls = getattr(module, "ModelNew", None) or module.Model
    init = module.get_init_inputs() if hasattr(module, "get_init_inputs") else []
    return cls(*init).cuda().eval()


def randn_pair(shape, seed, dtype):
    """Two fresh normal CUDA tensors (a gate and an up projection, say)."""
    import torch

    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(*shape, device="cuda", generator=g).to(dtype)
    b = torch.randn(*shape, device="cuda", generator=g).to(dtype)
    return (a, b)
