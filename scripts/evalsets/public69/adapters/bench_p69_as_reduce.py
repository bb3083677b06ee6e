"""Adapter of p69-as-reduce (kforecast's own code): each version's `extern "C" float kf_run(d_x)`
(the program's host reduce(d_x, method): it allocates its output, launches one method's kernel,
copies back and, for methods 1-2, adds the block partials on the host) on N = 100000000 fp32
values uniform in [0, 1) (the file's constant N; main() fills 1.23). Output: the sum (0-d)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 100000000
TOL = {"rtol": 2e-3, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g),)


def reference(x):
    return x.double().sum()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = ctypes.c_float
    fn.argtypes = [ctypes.c_void_p]

    def run(x):
        return torch.tensor(fn(ptr(x)), device="cuda", dtype=torch.float32)
    return run
