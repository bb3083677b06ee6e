"""Adapter of p44-js-transpose (kforecast's own code): transpose of a float32 8192 x 8192 matrix
(randn, as benchmarks.py draws it), each version the source's torch extension built with
torch.utils.cpp_extension.load (-O3), run through its kf_run (out = empty_like(x), one launcher)."""
import os

import torch
from progbuild import cache_dir, file_hash

N = 8192
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, N, device="cuda", generator=g),)


def reference(x):
    return x.double().t()


def build(path):
    from torch.utils.cpp_extension import load

    name = "p44_js_transpose_" + file_hash(path)
    ext = load(name=name, sources=[path], extra_cuda_cflags=["-O3"],
               build_directory=cache_dir("ext", name), verbose=bool(os.environ.get("EVALSET_VERBOSE")))
    return ext.kf_run
