"""Adapter of p37-sf-copy4d (kforecast's own code): stable-fast's Triton strided copy,
`copy(out, x.transpose(-1, -2))` with `out` contiguous, x (128, 16, 64, 512) float16 (the
source's own test: the transpose of the last two axes copied into a contiguous tensor;
the adapter allocates that tensor with torch.empty rather than the test's empty_like().contiguous())."""
import torch
from progbuild import load_program

SHAPE = (128, 16, 64, 512)
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(*SHAPE, device="cuda", generator=g, dtype=torch.float16),)


def reference(x):
    return x.double().transpose(-1, -2).contiguous()


def build(path):
    mod = load_program(path)

    def fn(x):
        t = x.transpose(-1, -2)
        out = torch.empty(t.shape, dtype=t.dtype, device=t.device)
        return mod.copy(out, t)
    return fn
