"""Adapter of p6-kk-layernorm (kforecast's own code): LayerNorm forward with weight and
bias, float32 4096 x 4096, eps 1e-5."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import _p6common as p6  # noqa: E402

M, N = 4096, 4096
EPS = 1e-5
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = p6.gen(seed)
    x = torch.randn(M, N, device="cuda", generator=g)
    w = torch.randn(N, device="cuda", generator=g)
    b = torch.randn(N, device="cuda", generator=g)
    return (x, w, b)


def reference(x, w, b):
    return F.layer_norm(x.double(), (N,), w.double(), b.double(), eps=EPS)


def torch_module(m):
    """TorchLayerNorm holds an nn.LayerNorm; the set's weight and bias are passed in its place."""
    mod = m.TorchLayerNorm(N, eps=EPS)

    def fn(x, w, b):
        with torch.no_grad():
            return torch.func.functional_call(mod, {"ln.weight": w, "ln.bias": b}, (x,))

    return fn


ENTRIES = {
    "layernorm_torch.py": torch_module,
    "layernorm_triton.py": lambda m: (lambda x, w, b: m.layernorm_triton(x, w, b, eps=EPS)),
    "layernorm_triton_v2.py": lambda m: (lambda x, w, b: m.layernorm_triton_v2(x, w, b, eps=EPS)),
    "layernorm_dispatch.py": lambda m: (lambda x, w, b: m.layernorm_triton_dispatch(x, w, b, eps=EPS)[0]),
}


def build(path):
    name = os.path.basename(path)
    if name not in ENTRIES:
        raise KeyError(f"the adapter has no entry for {name}")
    return ENTRIES[name](p6.python_program(path))
