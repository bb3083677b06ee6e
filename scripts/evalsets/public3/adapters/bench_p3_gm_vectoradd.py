"""Adapter of p3-gpumode-vectoradd (kforecast's own code): GPU MODE's vectoradd_py
reference and submissions, called as the problem's eval does (custom_kernel(data))."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pub3"))
import torch  # noqa: E402

import p3common as p3  # noqa: E402

SIZE = 8192
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(SIZE, SIZE, device="cuda", dtype=torch.float16, generator=g).contiguous()
    b = torch.randn(SIZE, SIZE, device="cuda", dtype=torch.float16, generator=g).contiguous()
    return (a, b)


def reference(a, b):
    return a.double() + b.double()


def build(path):
    m = p3.python_program(path)
    f = m.ref_kernel if os.path.basename(path) == "reference.py" else m.custom_kernel
    return lambda a, b: f((a, b))
