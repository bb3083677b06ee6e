"""Adapter of p22-tk-conway3d (kforecast's own code): two steps of a 3-D Game of Life on a
512^3 torus (26 neighbours; a live cell survives with 5-7, a dead one is born with 6).
The program steps in place (its result lands back in the first buffer); the harness gives
every check run fresh copies of the inputs, and the timed runs keep stepping the same state."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = 512
STEPS = 2
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    start = (torch.rand(M, M, M, device="cuda", generator=g) < 0.2).to(torch.uint8)
    b = torch.empty_like(start)
    return (start, b)


def reference(start, b):
    s = start.to(torch.int16)
    for _ in range(STEPS):
        n = -s
        for dz in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    n = n + torch.roll(s, (dz, dy, dx), (0, 1, 2))
        s = ((s == 1) & (n >= 5) & (n <= 7)) | ((s == 0) & (n == 6))
        s = s.to(torch.int16)
    return s.to(torch.uint8)


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]

    def fn(cells, b):
        lib.kf_run(ptr(cells), ptr(b), M, STEPS)
        return cells
    return fn
