"""Adapter of p32-sh-stencil (kforecast's own code): 3D seven-point stencil (-6 at the
centre, 1 at the six neighbours) on a 256^3 float grid; kf_run(in, out, N) runs the
launcher's case of the version's step. Only the interior is written and compared."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 256
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(N, N, N, device="cuda", generator=g)
    out = torch.empty(N, N, N, device="cuda")
    return (x, out)


def reference(x, out):
    a = x.double()
    c = a[1:-1, 1:-1, 1:-1]
    return (-6.0 * c + a[1:-1, 1:-1, :-2] + a[1:-1, 1:-1, 2:] + a[1:-1, :-2, 1:-1]
            + a[1:-1, 2:, 1:-1] + a[:-2, 1:-1, 1:-1] + a[2:, 1:-1, 1:-1])


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint]

    def fn(x, out):
        lib.kf_run(ptr(x), ptr(out), N)
        return out[1:-1, 1:-1, 1:-1]
    return fn
