"""Adapter of p18-bitonic-sort (kforecast's own code): 2^24 random ints, sorted ascending.

Each version sorts host memory in place, so every call first copies the (device) input
into a pinned host buffer of the build's own (ours, the same for every version; the
versions' own copies to and from the device follow). The output is that host buffer."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p18common as kf  # noqa: E402

N = 1 << 24


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(-(1 << 30), 1 << 30, (N,), device="cuda", dtype=torch.int32, generator=g),)


def reference(x):
    return torch.sort(x.long()).values


def build(path):
    run = kf.build_lib(path, [ctypes.c_void_p, ctypes.c_int], kf.BITONIC)
    host = torch.empty(N, dtype=torch.int32, pin_memory=True)

    def fn(x):
        host.copy_(x)  # device -> pinned host (synchronous for pageable-free pinned target)
        torch.cuda.current_stream().synchronize()
        kf.check(run(ctypes.c_void_p(host.data_ptr()), x.numel()), path)
        return host

    return fn
