"""Adapter of p37-rw-wkv (kforecast's own code): RWKV-4's WKV operator,
y[b,t,c] = (sum_{s<t} e^{-(t-1-s)e^{w_c} + k_s} v_s + e^{u_c + k_t} v_t) /
           (sum_{s<t} e^{-(t-1-s)e^{w_c} + k_s}     + e^{u_c + k_t}),
forward then backward as the source's WKV autograd function (wkv/run.py) calls the host
launchers (w -> -exp(w) first, gradient buffers zeroed, gw and gu summed over the batch): each
version is a .cu file built by nvcc into a shared library with run.py's flags, entered through
its KFORECAST `kf_forward`/`kf_backward`. B 32, T 768, C 768, float32, w, u, k, v uniform in
(-1, 1) (run.py's 'usual values'). Returns (y, gu, gk, gv): gw is computed by every version but
not compared (v0's lacks the chain-rule factor of w -> -exp(w) that v1 added)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

B, T, C = 32, 768, 768
FLAGS = ("-O3", "--use_fast_math", "--extra-device-vectorization")
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)

    def uni(*shape):
        return torch.rand(*shape, device="cuda", generator=g) * 2 - 1
    return (uni(C), uni(C), uni(B, T, C), uni(B, T, C), torch.randn(B, T, C, device="cuda", generator=g))


def reference(w, u, k, v, gy):
    w, u, k, v = (t.double().requires_grad_() for t in (w, u, k, v))
    d = torch.exp(-torch.exp(w))                      # per-step decay
    a = torch.zeros(B, C, dtype=torch.float64, device=k.device)
    b = torch.zeros(B, C, dtype=torch.float64, device=k.device)
    ys = []
    for t in range(T):
        ek = torch.exp(k[:, t])
        euk = torch.exp(u + k[:, t])
        ys.append((a + euk * v[:, t]) / (b + euk))
        a = d * a + ek * v[:, t]
        b = d * b + ek
    y = torch.stack(ys, dim=1)
    gu, gk, gv = torch.autograd.grad(y, (u, k, v), gy.double())
    return (y.detach(), gu, gk, gv)


def build(path):
    lib = nvcc_library(path, FLAGS)
    P = ctypes.c_void_p
    I = ctypes.c_int
    lib.kf_forward.argtypes = [I, I, I, P, P, P, P, P]
    lib.kf_backward.argtypes = [I, I, I, P, P, P, P, P, P, P, P, P]

    def fn(w, u, k, v, gy):
        w = -torch.exp(w.contiguous())
        y = torch.empty((B, T, C), device="cuda")
        lib.kf_forward(B, T, C, ptr(w), ptr(u), ptr(k), ptr(v), ptr(y))
        gw = torch.zeros((B, C), device="cuda")
        gu = torch.zeros((B, C), device="cuda")
        gk = torch.zeros((B, T, C), device="cuda")
        gv = torch.zeros((B, T, C), device="cuda")
        lib.kf_backward(B, T, C, ptr(w), ptr(u), ptr(k), ptr(v), ptr(gy), ptr(gw), ptr(gu), ptr(gk), ptr(gv))
        gw = torch.sum(gw, dim=0)
        gu = torch.sum(gu, dim=0)
        return (y, gu, gk, gv)
    return fn
