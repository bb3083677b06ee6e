"""Adapter of the cuda-samples reduction families (kforecast's own code).

Each version is a .cu program: one reduction of NVIDIA's reduction or threadFenceReduction
sample with the sample's launcher and GPU final-sum loop, plus an `extern "C" kf_run`
entry point (the sample's default block sizes inside)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

N = 1 << 25  # 32 M floats, 128 MB (the sample's default is 1 << 24)
TOL = {"rtol": 1e-4, "atol": 1.0}  # a float32 sum of ~1.7e7 in different orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g),)


def build(path):
    lib = kf.nvcc_shared(path, includes=[os.path.join(kf.VENDOR, "cuda-samples-common")],
                         flags=["-Xlinker", "-Bsymbolic"])
    run = lib.kf_run
    run.restype = ctypes.c_int
    run.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int]

    def fn(x):
        n = x.numel()
        out = torch.empty(n // 64 + 1024, device=x.device, dtype=torch.float32)
        scratch = torch.empty_like(out)
        kf.check(run(kf.ptr(x), kf.ptr(out), kf.ptr(scratch), n), path)
        return out[:1]

    return fn
