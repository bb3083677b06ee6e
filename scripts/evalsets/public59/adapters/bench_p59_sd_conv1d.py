"""Adapter of p59-sd-conv1d (kforecast's own code): 1-D convolution of 2^24 floats in
[-1, 1) with a 31-tap filter (radius 15), zero outside the data. kf_run(data, filter_dev,
res, n, filter_host, taps) is conv1D()'s filter upload (from the host filter, to global or
__constant__ memory) and launch for one pair of its flags. The filter's host copy is a CPU
tensor among the inputs, as conv1D() receives a std::vector."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 24
TAPS = 31
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    data = torch.rand(N, device="cuda", generator=g) * 2 - 1
    filt_host = (torch.rand(TAPS, generator=torch.Generator().manual_seed(seed)) * 2 - 1).contiguous()
    filt_dev = torch.empty(TAPS, device="cuda")
    res = torch.empty(N, device="cuda")
    return (data, filt_dev, res, filt_host)


def reference(data, filt_dev, res, filt_host):
    r = TAPS // 2
    x = torch.nn.functional.pad(data.double(), (r, r))
    # res[i] = sum_j data[i - j + r] * f[j]: a correlation with the flipped filter
    w = filt_host.double().flip(0).to(data.device)
    return torch.nn.functional.conv1d(x.view(1, 1, -1), w.view(1, 1, -1)).view(-1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint,
                           ctypes.c_void_p, ctypes.c_uint]

    def fn(data, filt_dev, res, filt_host):
        lib.kf_run(ptr(data), ptr(filt_dev), ptr(res), N, ctypes.c_void_p(filt_host.data_ptr()), TAPS)
        return res
    return fn
