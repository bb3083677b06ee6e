"""Adapter of p29-bnb-dequant-8bit (kforecast's own code): bitsandbytes' blockwise 8-bit
dequantisation, each version's entry called as f(A, absmax, code, 4096, torch.float32) (the
argument order of ops.dequantize_blockwise and of kernels_optim's _dequantize_blockwise_pytorch):
A uint8 4096 x 4096 random codes, code a sorted signed 256-entry map (ours: evenly spaced in
[-1, 1]), absmax float32 per 4096 elements. Float64 reference: code[A] * absmax[block]."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p29common as kf  # noqa: E402

M = N = 4096
BLOCK = 4096
TOL = {"rtol": 1e-5, "atol": 1e-6}


def make_inputs(seed):
    g = kf.gen(seed)
    a = torch.randint(0, 256, (M, N), device="cuda", dtype=torch.uint8, generator=g)
    code = torch.linspace(-1.0, 1.0, 256, device="cuda")
    absmax = 0.1 + 2.0 * torch.rand(M * N // BLOCK, device="cuda", generator=g)
    return (a, absmax, code)


def reference(a, absmax, code):
    vals = code.double()[a.flatten().long()] * absmax.double().repeat_interleave(BLOCK)
    return vals.reshape(M, N)


def build(path):
    f = kf.load(path).kf_entry

    def fn(a, absmax, code):
        with torch.no_grad():
            return f(a, absmax, code, BLOCK, torch.float32)
    return fn
