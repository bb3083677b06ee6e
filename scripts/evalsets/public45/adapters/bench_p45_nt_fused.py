"""Adapter of p45-nt-fused-bias-act (kforecast's own code): each version's `kf_run(a, b, bias)`
(the file's fused or unfused wrapper with activation="gelu") on fp16 A, B of 4096 x 4096 and bias
(4096,): GELU (tanh approximation) of A @ B + bias, fp16 out."""
import torch
import torch.nn.functional as F
from progbuild import load_program

M = N = K = 4096
TOL = {"rtol": 1e-2, "atol": 0.5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(M, K, device="cuda", generator=g).half()
    b = torch.randn(K, N, device="cuda", generator=g).half()
    bias = torch.randn(N, device="cuda", generator=g).half()
    return (a, b, bias)


def reference(a, b, bias):
    return F.gelu(a.double() @ b.double() + bias.double(), approximate="tanh")


def build(path):
    return load_program(path).kf_run
