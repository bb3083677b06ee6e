"""Adapter of p4-softmax-ext (kforecast's own code): ackRow's softmax torch extensions (one
.cu per version with its binding; setup.py's nvcc flags less -arch) and its Triton kernels
(article2's triton_softmax_v2, article3's triton_online_softmax)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

import _p4common as p4  # noqa: E402

ROWS, COLS = 16384, 4096
TOL = {"rtol": 2e-3, "atol": 1e-7}  # -use_fast_math exp
NVCC_FLAGS = ["-O3", "-use_fast_math", "-lineinfo", "-maxrregcount=128"]  # setup.py's, less -arch/-Xptxas=-v


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (4 * torch.randn(ROWS, COLS, device="cuda", generator=g),)


def reference(x):
    return torch.softmax(x.double(), dim=-1)


def build(path):
    if path.endswith(".py"):  # triton_kernels/articleN.py, a submodule of the vendored package
        m = p4.load_in_package(path, os.path.join(p4.VENDOR, "softmax-kernels"), "triton_kernels")
        return m.triton_softmax_v2 if hasattr(m, "triton_softmax_v2") else m.triton_online_softmax
    mod = p4.load_ext(path, [os.path.join(p4.VENDOR, "softmax-kernels", "cuda_kernels")], NVCC_FLAGS)
    return getattr(mod, os.path.splitext(os.path.basename(path))[0])
