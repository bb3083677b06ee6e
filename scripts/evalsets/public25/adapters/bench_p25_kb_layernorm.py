"""Adapter of p25-kb-layernorm (kforecast's own code): LayerNorm over the last three dims of
x 16 x 64 x 256 x 256 float32, eps 1e-5, with an elementwise weight and bias drawn once at
random (seed fixed) and copied into every version's `weight`/`bias` parameters (KernelBench
level 1 problem 40, ModelNew((64, 256, 256)) of each sample)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p25common as kf  # noqa: E402

SHAPE = (16, 64, 256, 256)
NORM = (64, 256, 256)
EPS = 1e-5
TOL = {"rtol": 1e-3, "atol": 1e-4}
_W = {}


def params():
    if not _W:
        g = torch.Generator(device="cuda").manual_seed(2025)
        _W["weight"] = 1 + 0.5 * torch.randn(NORM, device="cuda", generator=g)
        _W["bias"] = 0.5 * torch.randn(NORM, device="cuda", generator=g)
    return _W


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(SHAPE, device="cuda", generator=g) * 2 + 0.5,)


def reference(x):
    w = params()
    xd = x.double()
    return torch.nn.functional.layer_norm(xd, NORM, w["weight"].double(), w["bias"].double(), EPS)


def build(path):
    model = kf.set_params(kf.kernelbench_model(path, (NORM,)), by_name=params())

    def fn(x):
        with torch.no_grad():
            return model(x)
    return fn
