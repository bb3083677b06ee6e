"""Adapter of p32-ay-attn-fp32 and p32-ay-attn-fp16 (kforecast's own code): attention forward
softmax(q k^T / sqrt(d)) v, float32 or float16 (the builder sets DTYPE and TOL per family),
B = 4, nh = 8, N = 1024, d = 64; each version is
built as its test_flash.py builds it (torch.utils.cpp_extension.load, -O3) and called as
`forward(q, k, v)` (the version's own host function allocates the output)."""
import math
import os
import re

import torch
from progbuild import cache_dir, file_hash

B, NH, N, D = 4, 8, 1024, 64
DTYPE = torch.float32  # set by pub32.py: the family's type
TOL = {"rtol": 1e-3, "atol": 1e-3}  # set by pub32.py: the family's tolerance


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(B, NH, N, D, device="cuda", generator=g).to(DTYPE)
    k = torch.randn(B, NH, N, D, device="cuda", generator=g).to(DTYPE)
    v = torch.randn(B, NH, N, D, device="cuda", generator=g).to(DTYPE)
    return (q, k, v)


def reference(q, k, v):
    q, k, v = q.double(), k.double(), v.double()
    p = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(D), dim=-1)
    return p @ v


def build(path):
    from torch.utils.cpp_extension import load

    tag = file_hash(path)
    name = "p32_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0]) + "_" + tag
    mod = load(name=name, sources=[path], extra_cuda_cflags=["-O3"], build_directory=cache_dir("ext", name),
               verbose=bool(os.environ.get("EVALSET_VERBOSE")))

    def fn(q, k, v):
        return mod.forward(q, k, v)
    return fn
