"""Shared by the public74 adapters (kforecast's own code; pub74.py copies it into the set's root).

GPU MODE linear-algebra problem qr_v2: batched square compact-Householder QR, fp32,
`custom_kernel(A) -> (H, tau)` in torch.geqrf's convention. The versions of both families live in
one folder, `_p74qr/`, beside the problem's task.py (the submissions `from task import ...`), so
that a version used by both families is one file and its torch extensions are built once. Inputs
come from the problem's own generate_input (the reference version, `v00_reference.py`, is the
problem's reference.py). The float64 reference is torch.geqrf on the input in float64.

Some versions set process-wide matmul precision (`torch.backends.cuda.matmul.allow_tf32` at
import, `torch.set_float32_matmul_precision` inside their calls); since the harness times all
versions of a family in one process, `build` confines a version's settings to its own calls: the
settings are put back after its import and around every call.
"""

import os
import sys

import torch

SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_p74qr")

# fp32 QR of dense randn matrices by different algorithms (cuSOLVER geqrf, blocked WY with cuBLAS
# trailing updates, fused CUDA panels, NVRTC megakernels): R's and the reflectors' entries agree to a
# few units in 1e-3 of their scale; a wrong factorisation (or a flipped reflector) is off by O(1).
TOL = {"rtol": 1e-2, "atol": 1e-2}


def _on_path():
    if sys.path[0] != SHARED:
        sys.path.insert(0, SHARED)
    mod = sys.modules.get("task")
    if mod is not None and os.path.dirname(os.path.abspath(getattr(mod, "__file__", "") or "")) != SHARED:
        del sys.modules["task"]


def _load(path):
    _on_path()
    from progbuild import load_program
    return load_program(path)


def _get():
    b = torch.backends
    return (torch.get_float32_matmul_precision(), b.cuda.matmul.allow_tf32, b.cudnn.allow_tf32)


def _set(state):
    prec, tf32, cudnn_tf32 = state
    torch.set_float32_matmul_precision(prec)
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = cudnn_tf32


def reference(a):
    h, tau = torch.geqrf(a.double())
    return h, tau


def qr_adapter(batch, n, cond, seed0):
    def make_inputs(seed):
        ref = _load(os.path.join(SHARED, "v00_reference.py"))
        return (ref.generate_input(batch=batch, n=n, cond=cond, seed=seed0 + int(seed) % 1000),)

    def build(path):
        before = _get()
        mod = _load(path)
        own = _get()
        _set(before)
        entry = mod.kf_run

        def fn(a):
            prev = _get()
            _set(own)
            try:
                h, tau = entry(a)
            finally:
                _set(prev)
            return h, tau
        return fn

    return make_inputs, build
