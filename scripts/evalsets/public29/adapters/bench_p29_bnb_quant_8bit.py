"""Adapter of p29-bnb-quant-8bit (kforecast's own code): bitsandbytes' Triton blockwise 8-bit
quantisation, each version's ops.quantize_blockwise(A, code, 4096) -> (uint8 codes 4096 x 4096,
float32 absmax per 4096 elements); A float32 4096 x 4096, code a sorted signed 256-entry map
(ours: evenly spaced in [-1, 1]). Codes are compared exactly between versions; no float64
reference (a value halfway between two code entries rounds either way)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p29common as kf  # noqa: E402

M = N = 4096
BLOCK = 4096
TOL = {"rtol": 1e-6, "atol": 0.0}


def make_inputs(seed):
    a = torch.randn(M, N, device="cuda", generator=kf.gen(seed))
    code = torch.linspace(-1.0, 1.0, 256, device="cuda")
    return (a, code)


def build(path):
    f = kf.load(path).kf_entry

    def fn(a, code):
        with torch.no_grad():
            out, absmax = f(a, code, BLOCK)
        return out, absmax
    return fn
