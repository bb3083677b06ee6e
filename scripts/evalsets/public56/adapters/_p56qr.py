"""Shared by the public56 QR adapters (kforecast's own code; pub56.py copies it into the set's root).

GPU MODE problem qr_v2: batched square compact-Householder QR in torch.geqrf's convention,
`custom_kernel(A) -> (H, tau)`. Inputs come from the problem's own generate_input (its
reference.py, copied into each family folder as `_reference.py`, beside the problem's task.py,
which the submissions import). The float64 reference is torch.geqrf on the input in float64.

- `qr_adapter(here, batch, n, cond, seed0)`: make_inputs / reference / build for a family of
  Python versions (the problem's reference.py and submissions);
- `qrcu_adapter(...)`: the same for a family of `.cu` files with an `extern "C" kf_run(A, H, tau,
  batch, n)` (built with nvcc as the author's Makefile does).
"""

import os
import sys

import torch

# fp32 QR of well-conditioned inputs (cond 1: columns scaled by logspace(0, -1, n)) by different
# algorithms (cuSOLVER, blocked WY with cuBLAS, Triton) and --use_fast_math: agreement of R's and the
# reflectors' entries to a few units in 1e-3 of their scale; a wrong factorisation is off by O(1).
TOL = {"rtol": 1e-2, "atol": 1e-2}


def _on_path(here):
    if sys.path[0] != here:
        sys.path.insert(0, here)
    for m in ("task", "_reference"):
        mod = sys.modules.get(m)
        if mod is not None and os.path.dirname(os.path.abspath(getattr(mod, "__file__", "") or "")) != here:
            del sys.modules[m]


def _load(here, path):
    _on_path(here)
    from progbuild import load_program
    return load_program(path)


def _inputs(here, batch, n, cond, seed0, seed):
    ref = _load(here, os.path.join(here, "_reference.py"))
    return (ref.generate_input(batch=batch, n=n, cond=cond, seed=seed0 + int(seed) % 1000),)


def reference(a):
    h, tau = torch.geqrf(a.double())
    return h, tau


def qr_adapter(here, batch, n, cond, seed0):
    def make_inputs(seed):
        return _inputs(here, batch, n, cond, seed0, seed)

    def build(path):
        mod = _load(here, path)
        f = getattr(mod, "custom_kernel", None) or mod.ref_kernel

        def fn(a):
            h, tau = f(a)
            return h, tau
        return fn

    return make_inputs, build


def qrcu_adapter(here, batch, n, cond, seed0):
    def make_inputs(seed):
        return _inputs(here, batch, n, cond, seed0, seed)

    def build(path):
        import ctypes

        from progbuild import nvcc_library, ptr
        lib = nvcc_library(path, flags=("-O3", "-std=c++17", "--use_fast_math", "-lcublas"))
        lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
        lib.kf_run.restype = None

        def fn(a):
            b, m, _ = a.shape
            h = torch.empty_like(a)
            tau = torch.empty((b, m), device=a.device, dtype=torch.float32)
            lib.kf_run(ptr(a), ptr(h), ptr(tau), b, m)
            return h, tau
        return fn

    return make_inputs, build
