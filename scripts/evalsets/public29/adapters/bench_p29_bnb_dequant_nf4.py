"""Adapter of p29-bnb-dequant-nf4 (kforecast's own code): bitsandbytes' Triton NF4 blockwise
dequantisation, each version's ops.dequantize_4bit(A, absmax, 64, "nf4", (4096, 4096),
torch.bfloat16); A random packed codes uint8 (2^23 x 1; high nibble first), absmax float32 per
64 elements. The float64 reference decodes with the NF4 table (the QLoRA paper's 16 values)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p29common as kf  # noqa: E402

M = N = 4096
BLOCK = 64
TOL = {"rtol": 1e-2, "atol": 1e-2}
NF4 = [-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
       -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
       0.24611230194568634, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941,
       0.7229568362236023, 1.0]


def make_inputs(seed):
    g = kf.gen(seed)
    a = torch.randint(0, 256, (M * N // 2, 1), device="cuda", dtype=torch.uint8, generator=g)
    absmax = 0.1 + 2.0 * torch.rand(M * N // BLOCK, device="cuda", generator=g)
    return (a, absmax)


def reference(a, absmax):
    table = torch.tensor(NF4, dtype=torch.float64, device=a.device)
    b = a.flatten().long()
    codes = torch.stack([b >> 4, b & 0xF], dim=1).flatten()
    vals = table[codes] * absmax.double().repeat_interleave(BLOCK)
    return vals.reshape(M, N)


def build(path):
    f = kf.load(path).kf_entry

    def fn(a, absmax):
        with torch.no_grad():
            return f(a, absmax, BLOCK, "nf4", (M, N), torch.bfloat16)
    return fn
