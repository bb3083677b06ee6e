"""Adapter of p8-hec-relu (kforecast's own code): ReLU of the four signed bytes packed
in each of 2^26 ints (main() draws each byte uniformly in 0..255, as here)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p8common as c  # noqa: E402

COUNT = 1 << 26
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    b = torch.randint(0, 256, (COUNT * 4,), device="cuda", generator=c.gen(seed), dtype=torch.uint8)
    return (b.view(torch.int32),)


def reference(x):
    return x.view(torch.int8).clamp_min(0).view(torch.int32).double()


def build(path):
    if not c.is_cuda_program(path):
        return c.torch_function(path, "relu_int8x4")
    run = c.entry(path, 2, 1)

    def fn(x):
        out = torch.empty_like(x)
        c.check(run(c.ptr(x), c.ptr(out), x.numel()), path)
        return out

    return fn
