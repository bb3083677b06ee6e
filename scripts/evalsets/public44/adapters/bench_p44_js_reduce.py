"""Adapter of p44-js-reduce (kforecast's own code): sum of a 1-D int32 tensor of 2^25 elements
drawn from [-100, 100) (benchmarks.py's largest N, test.py's integer inputs), each version the
source's torch extension (.cu with its pybind module) built with torch.utils.cpp_extension.load
(-O3) as reduction.py does, run through its kf_run (a zero scalar out, one launch_reduce<VER>)."""
import os

import torch
from progbuild import cache_dir, file_hash

N = 1 << 25
TOL = {"rtol": 0.0, "atol": 0.5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(-100, 100, (N,), device="cuda", dtype=torch.int32, generator=g),)


def reference(x):
    return x.double().sum()


def build(path):
    from torch.utils.cpp_extension import load

    name = "p44_js_reduce_" + file_hash(path)
    ext = load(name=name, sources=[path], extra_cuda_cflags=["-O3"],
               build_directory=cache_dir("ext", name), verbose=bool(os.environ.get("EVALSET_VERBOSE")))
    return ext.kf_run
