"""Adapter of p50-kb3-matvec (kforecast's own code): A @ B of A 256 x 131072 and B 131072 x 1
float32 (randn, as KernelBench-v3 problem 4's get_inputs); outputs compared flat (256,).
Entries are sums of 131072 products (about 362 in size), so atol 1e-2 covers fp32 summation
order near zero."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p50common as kf  # noqa: E402

M, K = 256, 131072
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, K, device="cuda", generator=g), torch.randn(K, 1, device="cuda", generator=g))


def reference(A, B):
    return (A.double() @ B.double()).reshape(-1)


def build(path):
    return kf.build(path, (), (-1,))
