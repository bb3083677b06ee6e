"""Adapter of p48-by-vectorsum (kforecast's own code): each GPU MODE submission's
`kf_run(values, output)` (its custom_kernel((values, output))) on 52428800 float32 values drawn
as the leaderboard's generate_input draws them (normal, scale 0.1-10, offset -100..100) and a
one-element output; compared with the float64 sum. The submissions import `task` from their
own folder."""
import os
import sys

import torch
from progbuild import load_program

SIZE = 52428800
TOL = {"rtol": 1e-4, "atol": 1.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    data = torch.randn(SIZE, device="cuda", dtype=torch.float32, generator=g)
    offset = float(torch.rand(1, device="cuda", generator=g) * 200 - 100)
    scale = float(torch.rand(1, device="cuda", generator=g) * 9.9 + 0.1)
    values = (data * scale + offset).contiguous()
    output = torch.empty(1, device="cuda", dtype=torch.float32)
    return (values, output)


def reference(values, output):
    return values.double().sum().reshape(())


def build(path):
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    fn = load_program(path).kf_run
    return lambda values, output: fn(values, output).reshape(())
