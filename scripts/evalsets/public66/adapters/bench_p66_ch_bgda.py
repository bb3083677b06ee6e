"""Adapter of p66-ch-bgda (kforecast's own code): each version's `kf_run(x, bias, res)`
(caseyhird's eager function and Triton kernels) on fp32 x (8192, 4096), bias (4096,), residual
(8192, 4096), p = 0; output gelu_tanh(x + bias) + residual."""
import math

import torch
from progbuild import load_program

M, N = 8192, 4096
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, N, device="cuda", generator=g),
            torch.randn(N, device="cuda", generator=g),
            torch.randn(M, N, device="cuda", generator=g))


def reference(x, bias, res):
    z = x.double() + bias.double()
    g = 0.5 * z * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z ** 3)))
    return g + res.double()


def build(path):
    return load_program(path).kf_run
