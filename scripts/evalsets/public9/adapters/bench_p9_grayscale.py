"""Adapter of p9-gm-grayscale (kforecast's own code): GPU MODE's grayscale problem,
`custom_kernel(data)` with data an RGB image (H, W, 3) float32 in [0, 1], square and even
(8192 x 8192 here), returning (H, W) Y = 0.2989 R + 0.5870 G + 0.1140 B. A submission whose CUDA extension
does not build and that falls back to eager torch (it sets HAS_CUDA = False) fails here:
its kernel is not what would run."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p9common as kf  # noqa: E402

SIDE = 8192
TOL = {"rtol": 1e-5, "atol": 1e-5}


def make_inputs(seed):
    return (torch.rand(SIDE, SIDE, 3, device="cuda", generator=kf.gen(seed)),)


def reference(data):
    d = data.double()
    return 0.2989 * d[..., 0] + 0.5870 * d[..., 1] + 0.1140 * d[..., 2]


def build(path):
    m = kf.load_with_extensions(path)
    if getattr(m, "HAS_CUDA", True) is False:
        # the submission catches its extension's build error and runs eager torch instead:
        # what would be timed is not the program's kernel
        raise RuntimeError("its CUDA extension did not build (the program falls back to eager torch)")
    f = m.custom_kernel
    return lambda data: f(data)
