"""Adapter of p5-rms-norm (kforecast's own code): RMSNorm forward, fp16 16384 x 4096,
eps 1e-5. kernl's versions have `kf_entry(x, w, eps)`; applied-ai's module is called through
its `fused_rms_norm_fn(x, weight, eps)`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p5common as kf  # noqa: E402

M, N = 16384, 4096
EPS = 1e-5
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = kf.generator(seed)
    x = torch.randn(M, N, device="cuda", generator=g).half()
    w = (1 + 0.1 * torch.randn(N, device="cuda", generator=g)).half()
    return (x, w)


def reference(x, w):
    x = x.double()
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * w.double()


def build(path):
    m = kf.load_python(path)
    if hasattr(m, "kf_entry"):
        return lambda x, w: m.kf_entry(x, w, EPS)
    return lambda x, w: m.fused_rms_norm_fn(x, w, EPS)
