"""bitonic_segments: cupy RawModule programs with templated kernels (name_expressions);
sort_segments(x [segments, 1024] f32) -> each row sorted ascending (a new array)."""
import cupy as cp
import torch
from progbuild import load_program

SEGMENTS, SEG = 16384, 1024  # 64 MB of floats
TOL = {"rtol": 0.0, "atol": 0.0}  # a permutation: exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(SEGMENTS, SEG, device="cuda", generator=g),)


def build(path):
    prog = load_program(path)
    return lambda x: torch.from_dlpack(prog.sort_segments(cp.from_dlpack(x)))


def reference(x):
    return torch.sort(x.double(), dim=1).values
