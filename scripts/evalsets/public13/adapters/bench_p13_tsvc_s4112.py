"""Adapter of p13-tsvc-s4112 (kforecast's own code): a[i] += b[ip[i]] * s over 2^24 floats,
random int64 indices (as the source's own tests draw them)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p13common as kf  # noqa: E402

N = 1 << 24
S = 0.5
TOL = {"rtol": 1e-5, "atol": 1e-5}


def make_inputs(seed):
    g = kf.generator(seed)
    a = torch.randn(N, device="cuda", generator=g)
    b = torch.randn(N, device="cuda", generator=g)
    ip = torch.randint(0, N, (N,), device="cuda", generator=g, dtype=torch.long)
    return (a, b, ip, S)


def reference(a, b, ip, s):
    return a.double() + b.double()[ip] * s


def build(path):
    return kf.tsvc_function(path, "s4112")
