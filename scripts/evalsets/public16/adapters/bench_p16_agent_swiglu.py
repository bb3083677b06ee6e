"""Adapter of the p16-agent-swiglu family (kforecast's own code).

Each version is a module with `run(x, y) -> silu(x) * y` (the task's reference or an agent's
Triton candidate), on the task's canonical bf16 (1, 512, 6144) inputs."""
import torch

from progbuild import load_program  # the harness puts its folder on sys.path

SHAPE = (1, 512, 6144)  # the task's canonical shape (3.1 M elements; some candidates hardcode it)
TOL = {"rtol": 1.6e-2, "atol": 1e-2}  # bf16 output


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(*SHAPE, device="cuda", generator=g).to(torch.bfloat16)
    y = torch.randn(*SHAPE, device="cuda", generator=g).to(torch.bfloat16)
    return (x, y)


def reference(x, y):
    x = x.double()
    return x * torch.sigmoid(x) * y.double()


def build(path):
    mod = load_program(path)
    return lambda x, y: mod.run(x, y)
