"""Adapter of p8-hec-gelu (kforecast's own code): tanh GELU of x + bias in half, batch 16
x seq 8192 x hidden 512; x uniform [0, 1) and bias -6 + rand() % 12 as main() draws them.
The CUDA versions work in place on x, as the source's do (so a timed call reads what the
previous one wrote, for every version alike); the torch version returns a new tensor."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p8common as c  # noqa: E402

BATCH, SEQ, HIDDEN = 16, 8192, 512
TOL = {"rtol": 1e-2, "atol": 1e-2}  # half outputs up to ~7


def make_inputs(seed):
    g = c.gen(seed)
    x = torch.rand(BATCH, SEQ, HIDDEN, device="cuda", generator=g).half()
    bias = (torch.randint(0, 12, (HIDDEN,), device="cuda", generator=g) - 6).half()
    return (x, bias)


def reference(x, bias):
    t = (x + bias).double()  # the kernels add in half, then work in float
    return 0.5 * t * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (t + 0.044715 * t ** 3)))


def build(path):
    if not c.is_cuda_program(path):
        return c.torch_function(path, "gelu_bias")
    run = c.entry(path, 2, 3)

    def fn(x, bias):
        c.check(run(c.ptr(x), c.ptr(bias), BATCH, SEQ, HIDDEN), path)
        return x

    return fn
