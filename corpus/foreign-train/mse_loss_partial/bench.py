"""mse_loss_partial: mean((pred - target)^2) over 64M floats, Triton programs with several kernels:
mse_loss(pred f32 [n], target f32 [n]) -> 0-dim float32 tensor."""
import torch
from progbuild import load_program

N = (1 << 26) + 1000  # two 256 MB inputs; not a multiple of any block
TOL = {"rtol": 1e-4, "atol": 1e-6}  # float32 sums in different orders (atomics included)


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    pred = torch.randn(N, device="cuda", generator=g)
    target = torch.randn(N, device="cuda", generator=g) + 0.1
    return pred, target


def build(path):
    prog = load_program(path)
    return prog.mse_loss


def reference(pred, target):
    return ((pred.double() - target.double()) ** 2).mean()
