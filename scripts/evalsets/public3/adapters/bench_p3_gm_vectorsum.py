"""Adapter of p3-gpumode-vectorsum (kforecast's own code): GPU MODE's vectorsum_py
reference and submissions, called as the problem's eval does (custom_kernel(data)).
Outputs are copied: the compiled versions run as CUDA graphs, whose outputs the next
replay overwrites."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pub3"))
import torch  # noqa: E402

import p3common as p3  # noqa: E402

SIZE = 52428800
TOL = {"rtol": 1e-4, "atol": 1.0}  # float32 sums of ~5e7 terms of up to ~100 in other orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    data = torch.randn(SIZE, device="cuda", dtype=torch.float32, generator=g)
    g2 = torch.Generator(device="cuda").manual_seed(seed + 1)
    offset = (torch.rand(1, device="cuda", generator=g2) * 200 - 100).item()
    g3 = torch.Generator(device="cuda").manual_seed(seed + 2)
    scale = (torch.rand(1, device="cuda", generator=g3) * 9.9 + 0.1).item()
    return ((data * scale + offset).contiguous(),)  # reference.py's generate_input


def reference(x):
    return x.double().sum().reshape(1)


def build(path):
    m = p3.python_program(path)
    f = m.ref_kernel if os.path.basename(path) == "reference.py" else m.custom_kernel
    return lambda x: f(x).reshape(1).clone()
