"""log_softmax_rows: log-softmax along dim 1, Triton wrappers: log_softmax_rows(x [rows, n] f32) -> y."""
import torch
from progbuild import load_program

ROWS, N = 8192, 8192  # 256 MB in, 256 MB out
TOL = {"rtol": 1e-5, "atol": 2e-4}  # 8k-term sums in different orders, approximate exp/log


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(ROWS, N, device="cuda", generator=g) * 2.0,)


def build(path):
    prog = load_program(path)
    return prog.log_softmax_rows


def reference(x):
    return torch.log_softmax(x.double(), dim=1)
