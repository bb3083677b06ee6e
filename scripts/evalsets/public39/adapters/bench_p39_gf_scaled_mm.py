"""Adapter of p39-gf-scaled-mm (kforecast's own code): each version's `kf_run(a, b, sa, sb)`
(the source's wrapper with 128 x 128 x 64 tiles) on fp16 A, B of 4096 x 4096 and fp32
per-block scales Sa [M/128, K/64], Sb [K/64, N/128] in [0.5, 2); C = (A*Sa) @ (B*Sb), fp16."""
import torch
from progbuild import load_program

M = N = K = 4096
BM, BN, BK = 128, 128, 64
TOL = {"rtol": 1e-2, "atol": 0.25}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(M, K, device="cuda", generator=g).half()
    b = torch.randn(K, N, device="cuda", generator=g).half()
    sa = torch.rand(M // BM, K // BK, device="cuda", generator=g) * 1.5 + 0.5
    sb = torch.rand(K // BK, N // BN, device="cuda", generator=g) * 1.5 + 0.5
    return (a, b, sa, sb)


def reference(a, b, sa, sb):
    ea = sa.double().repeat_interleave(BM, 0).repeat_interleave(BK, 1)
    eb = sb.double().repeat_interleave(BK, 0).repeat_interleave(BN, 1)
    return (a.double() * ea) @ (b.double() * eb)


def build(path):
    return load_program(path).kf_run
