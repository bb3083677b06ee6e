"""group_norm: GPU MODE-style Triton programs, custom_kernel((x, weight, bias)) -> y.

x [N, C, H, W] float32, 32 groups, per-channel affine, eps 1e-5."""
import torch
from progbuild import load_program

N, C, H, W = 32, 256, 64, 64  # 128 MB in, 128 MB out
GROUPS = 32
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(N, C, H, W, device="cuda", generator=g) * 2.0 + 0.5
    w = 1.0 + 0.1 * torch.randn(C, device="cuda", generator=g)
    b = 0.1 * torch.randn(C, device="cuda", generator=g)
    return x, w, b


def build(path):
    prog = load_program(path)
    return lambda x, w, b: prog.custom_kernel((x, w, b))


def reference(x, w, b):
    return torch.nn.functional.group_norm(x.double(), GROUPS, w.double(), b.double(), 1e-5)
