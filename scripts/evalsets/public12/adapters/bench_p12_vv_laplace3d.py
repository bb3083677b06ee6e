"""Adapter of p12-vv-laplace3d (kforecast's own code): one Jacobi step of the 3-D Laplace
stencil on 512^3 floats (the source main()'s own size), kf_run(u1, u2, NX, NY, NZ). The
interior is compared: laplace3d_gpu2 leaves the boundary of u2 as it was."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p12common as pc  # noqa: E402

NX = NY = NZ = 512
TOL = {"rtol": 1e-5, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(NZ, NY, NX, device="cuda", generator=g),)


def reference(u):
    u = u.to(torch.float64)
    c = (u[1:-1, 1:-1, :-2] + u[1:-1, 1:-1, 2:] + u[1:-1, :-2, 1:-1] + u[1:-1, 2:, 1:-1]
         + u[:-2, 1:-1, 1:-1] + u[2:, 1:-1, 1:-1]) / 6.0
    return c


def build(path):
    run = pc.entry(path, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int],
                   includes=["vv"])

    def fn(u):
        out = torch.empty_like(u)
        pc.check(run(pc.ptr(u), pc.ptr(out), NX, NY, NZ), path)
        return out[1:-1, 1:-1, 1:-1]

    return fn
