"""Adapter of pm-leetcuda-elementwise-add (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubmix"))
import torch  # noqa: E402

import pm_common as pm  # noqa: E402

S, K = 4096, 4096
TOL = {"rtol": 1e-2, "atol": 1e-2}  # f16 outputs against the f32 reference


def make_inputs(seed):
    g = pm.gen(seed)
    a = torch.randn(S, K, device="cuda", generator=g).half()
    b = torch.randn(S, K, device="cuda", generator=g).half()
    return (a.float(), b.float(), a, b)


def reference(a32, b32, a16, b16):
    return a32.double() + b32.double()


def build(path):
    op = pm.load_leetcuda(path)
    half = pm.dtype_of(path) == torch.float16

    def fn(a32, b32, a16, b16):
        a, b = (a16, b16) if half else (a32, b32)
        c = torch.empty_like(a)
        op(a, b, c)
        return c
    return fn
