"""Adapter of p8-hec-relu-grad (kforecast's own code): ReLU's gradient in half over 2^26
elements; feature uniform in [-1, 1) as main() draws it, gradient normal (main() uses
ones, which would hide a version that ignores it)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p8common as c  # noqa: E402

COUNT = 1 << 26
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = c.gen(seed)
    gradient = torch.randn(COUNT, device="cuda", generator=g).half()
    feature = (torch.rand(COUNT, device="cuda", generator=g) * 2 - 1).half()
    return (gradient, feature)


def reference(gradient, feature):
    return torch.where(feature > 0, gradient.double(), torch.zeros_like(gradient, dtype=torch.float64))


def build(path):
    if not c.is_cuda_program(path):
        return c.torch_function(path, "relu_grad")
    run = c.entry(path, 3, 1)

    def fn(gradient, feature):
        out = torch.empty_like(gradient)
        c.check(run(c.ptr(gradient), c.ptr(feature), c.ptr(out), gradient.numel()), path)
        return out

    return fn
