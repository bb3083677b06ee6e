"""Adapter of p8-cba-histogram (kforecast's own code): 7-bin histogram of 2^24 letters
'a'..'z' drawn as main() draws them ('a' + rand() % 26)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p8common as c  # noqa: E402

N, BINS = 1 << 24, 7
DIV = (26 + BINS - 1) // BINS
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    return (torch.randint(ord("a"), ord("z") + 1, (N,), device="cuda", generator=c.gen(seed), dtype=torch.uint8),)


def reference(chars):
    return torch.bincount((chars.long() - ord("a")) // DIV, minlength=BINS).double()


def build(path):
    if not c.is_cuda_program(path):
        return c.torch_function(path, "histogram")
    run = c.entry(path, 2, 1)

    def fn(chars):
        out = torch.empty(BINS, device="cuda", dtype=torch.int32)
        c.check(run(c.ptr(chars), c.ptr(out), chars.numel()), path)
        return out

    return fn
