"""Adapter of p37-rw-timex (kforecast's own code): RWKV's TimeX operator, a causal depthwise
1-D convolution whose per-channel kernel is as long as the sequence,
out[b,c,t] = eps + sum_{u<=t} w[c, T-1-(t-u)] k[b,c,u], forward then backward as the source's
TimeX autograd function (depthwise_conv1d/run.py) calls the host launchers: each version is a
.cu file built by nvcc into a shared library with run.py's flags, entered through its
KFORECAST `kf_forward`/`kf_backward`. B 32, C 768, T 768, eps 0.1 (run.py's CHECK_CUDA), float32;
returns (out, gw summed over the batch, gk)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

B, C, T = 32, 768, 768
EPS = 0.1
FLAGS = ("-O3", "--use_fast_math", "--extra-device-vectorization", "-DTmax=768", "-DBF=8", "-DBB=2")
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    w = torch.rand(C, T, device="cuda", generator=g)
    k = torch.rand(B, C, T, device="cuda", generator=g)
    gwk = torch.randn(B, C, T, device="cuda", generator=g)
    return (w, k, gwk)


def _causal(w, k):
    """float64 out[b,c,t] = eps + sum_{u<=t} w[c,T-1-(t-u)] k[b,c,u], by FFT."""
    h = torch.flip(w, dims=[-1])                      # h[c, s] = w[c, T-1-s]
    n = 2 * T
    y = torch.fft.irfft(torch.fft.rfft(k, n) * torch.fft.rfft(h, n), n)[..., :T]
    return y + EPS


def reference(w, k, gwk):
    w = w.double().requires_grad_()
    k = k.double().requires_grad_()
    y = _causal(w, k)
    gw, gk = torch.autograd.grad(y, (w, k), gwk.double())
    return (y.detach(), gw, gk)


def build(path):
    lib = nvcc_library(path, FLAGS)
    P = ctypes.c_void_p
    I = ctypes.c_int
    lib.kf_forward.argtypes = [P, P, P, ctypes.c_float, I, I, I]
    lib.kf_backward.argtypes = [P, P, P, P, P, I, I, I]

    def fn(w, k, gwk):
        wk = torch.empty((B, C, T), device="cuda")
        lib.kf_forward(ptr(w), ptr(k), ptr(wk), EPS, B, C, T)
        gw = torch.empty((B, C, T), device="cuda")
        gk = torch.empty((B, C, T), device="cuda")
        lib.kf_backward(ptr(w), ptr(k), ptr(gwk), ptr(gw), ptr(gk), B, C, T)
        return (wk, gw.sum(dim=0), gk)
    return fn
