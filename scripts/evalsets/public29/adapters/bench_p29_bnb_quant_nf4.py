"""Adapter of p29-bnb-quant-nf4 (kforecast's own code): bitsandbytes' Triton NF4 blockwise
quantisation, each version's ops.quantize_4bit(A, 64, "nf4", torch.uint8) -> (packed uint8
codes (2^23 x 1), float32 absmax per 64 elements), A a bf16 4096 x 4096 weight. The outputs are
integer codes (compared exactly between versions) and the block absmax; no float64 reference:
a value at an NF4 decision threshold falls either side depending on the float32 division."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p29common as kf  # noqa: E402

M = N = 4096
BLOCK = 64
TOL = {"rtol": 1e-6, "atol": 0.0}


def make_inputs(seed):
    a = torch.randn(M, N, device="cuda", generator=kf.gen(seed)).to(torch.bfloat16)
    return (a,)


def build(path):
    f = kf.load(path).kf_entry

    def fn(a):
        with torch.no_grad():
            packed, absmax = f(a, BLOCK, "nf4", torch.uint8)
        return packed, absmax
    return fn
