"""Adapter of p8-hec-attention (kforecast's own code): HeCBench's single-query attention,
softmax(K q) V, n = 65536 keys of d = 2048 floats (the Makefile's run line), inputs
uniform in [-0.01, 0.01) as main() draws them."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p8common as c  # noqa: E402

N, D = 65536, 2048
TOL = {"rtol": 1e-2, "atol": 1e-6}  # outputs ~2e-5; float32 sums over 65536 terms


def make_inputs(seed):
    g = c.gen(seed)

    def u(*shape):
        return torch.rand(*shape, device="cuda", generator=g) * 0.02 - 0.01

    return (u(N, D), u(N, D), u(D))


def reference(key, value, query):
    return torch.softmax(key.double() @ query.double(), 0) @ value.double()


def build(path):
    if not c.is_cuda_program(path):
        return c.torch_function(path, "attention")
    run = c.entry(path, 7, 2)

    def fn(key, value, query):
        n, d = key.shape
        dot = torch.empty(n, device="cuda")
        exp_sum = torch.empty(1, device="cuda")
        score = torch.empty(n, device="cuda")
        out = torch.empty(d, device="cuda")
        c.check(run(c.ptr(key), c.ptr(value), c.ptr(query), c.ptr(dot), c.ptr(exp_sum), c.ptr(score),
                    c.ptr(out), n, d), path)
        return out

    return fn
