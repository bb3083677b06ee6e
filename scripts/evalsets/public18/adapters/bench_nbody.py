"""Adapter of p18-hbook-nbody (kforecast's own code): 16384 bodies (nbody.cu's
--numbodies 16) uniform in the unit ball with unit mass (its randomUnitBodies), softening
0.1; output: the 3*N forces."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p18common as kf  # noqa: E402

N = 16 * 1024
SOFTENING = 0.1
# float32 sums of 16384 terms in different orders (tiles, atomics); forces are O(1e3)
TOL = {"rtol": 1e-3, "atol": 1.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    pts = torch.rand(4 * N, 3, device="cuda", generator=g) * 2 - 1
    pts = pts[(pts * pts).sum(1) <= 1.0][:N]
    pos = torch.cat([pts, torch.ones(N, 1, device="cuda")], 1).contiguous()
    return (pos,)


def build(path):
    run = kf.build_lib(path, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_float, ctypes.c_size_t], kf.HBOOK)

    def fn(pos):
        force = torch.empty(3 * N, device=pos.device, dtype=torch.float32)
        kf.check(run(kf.ptr(force), kf.ptr(pos), SOFTENING, N), path)
        return force

    return fn
