"""Adapter of p3-nbody (kforecast's own code): one bodyForce step of mini-nbody.

nbody-orig keeps bodies as an array of {x, y, z, vx, vy, vz}; the other versions as
float4 positions followed by float4 velocities. fn packs the same bodies into the
version's layout (a fresh buffer: the kernel updates velocities in place) and returns
the new velocities (n x 3)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pub3"))
import torch  # noqa: E402

import p3common as p3  # noqa: E402

N = 32768
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    pos = 2 * torch.rand(N, 4, device="cuda", generator=g) - 1  # randomizeBodies: uniform in [-1, 1]
    vel = 2 * torch.rand(N, 4, device="cuda", generator=g) - 1
    return (pos, vel)


def build(path):
    from progbuild import ptr

    run = p3.cuda_program(path, include="mini-nbody")
    run.argtypes = [ctypes.c_void_p, ctypes.c_int]
    aos = os.path.basename(path) == "nbody-orig.cu"

    def fn(pos, vel):
        n = pos.shape[0]
        if aos:
            buf = torch.cat([pos[:, :3], vel[:, :3]], dim=1).contiguous()
            p3.check(run(ptr(buf), n), path)
            return buf[:, 3:6]
        buf = torch.cat([pos, vel], dim=0).contiguous()
        p3.check(run(ptr(buf), n), path)
        return buf[n:, :3]

    return fn
