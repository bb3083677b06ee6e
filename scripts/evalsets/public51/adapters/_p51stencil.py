"""Shared by the p51-ku-stencil* adapters (kforecast's own code): the kaixih stencil programs'
kf_run(in, out, args) runs main()'s ITER = 100 launches of one kernel with its pointer swaps;
the result lands in the buffer passed as `in` (ITER is even). Every call copies the input into
that buffer and zeroes the other one (its halo must read 0, as main()'s Clear_Output leaves it):
the same two small steps for every version. Arrays have a halo of 1 on every side; coefficient
l of a point multiplies its neighbour at offset offs[l] (the source's Stencil_Cuda order)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

ITER = 100
TOL = {"rtol": 2e-4, "atol": 1e-3}


def inner(shape, shift=None):
    shift = shift or (0,) * len(shape)
    return tuple(slice(1 + s, 1 + s + n) for s, n in zip(shift, shape))


def make_inputs(seed, shape, value_range, coef, n_coef, per_point):
    """Values uniform [0, value_range) inside a zero halo (the source's Init_Input); the source's
    Init_Args value `coef`, drawn in [0.95, 1.05] x coef per point when `per_point`."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    full = tuple(n + 2 for n in shape)
    x = torch.zeros(full, device="cuda")
    x[inner(shape)] = torch.rand(shape, device="cuda", generator=g) * value_range
    if per_point:
        args = (torch.rand((n_coef,) + full, device="cuda", generator=g) * 0.1 + 0.95) * coef
    else:
        args = torch.full((n_coef,) + full, coef, device="cuda")
    return (x, args, torch.empty_like(x), torch.empty_like(x))


def reference(x, args, shape, offs):
    cur = x.double()
    for _ in range(ITER):
        acc = torch.zeros(shape, device="cuda", dtype=torch.float64)
        for l, off in enumerate(offs):
            acc += args[l][inner(shape)].double() * cur[inner(shape, off)]
        new = torch.zeros_like(cur)
        new[inner(shape)] = acc
        cur = new
    return cur


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]

    def fn(x, args, work, other):
        work.copy_(x)
        other.zero_()
        lib.kf_run(ptr(work), ptr(other), ptr(args))
        return work
    return fn


def family(shape, value_range, coef, per_point, offs):
    """A family's (make_inputs, reference, build) for the harness."""
    def fam_inputs(seed):
        return make_inputs(seed, shape, value_range, coef, len(offs), per_point)

    def fam_reference(x, args, work, other):
        return reference(x, args, shape, offs)
    return fam_inputs, fam_reference, build
