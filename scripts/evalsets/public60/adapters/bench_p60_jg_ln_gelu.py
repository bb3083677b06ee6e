"""Adapter of p60-jg-ln-gelu (kforecast's own code): each version's `kf_run(x, gamma, beta)`
(TritonPlayground's fused_ln_gelu, or the torch line its benchmark times) on fp32 x (8192, 8192),
gamma, beta (8192); output gelu(layer_norm(x) * gamma + beta) (exact erf GELU)."""
import torch
from progbuild import load_program

M, N = 8192, 8192
# The first version uses the tanh approximation of GELU (within ~1e-3 of erf GELU at the sizes
# gamma, beta ~ N(0, 1) give).
TOL = {"rtol": 2e-3, "atol": 2e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(M, N, device="cuda", generator=g)
    gamma = torch.randn(N, device="cuda", generator=g)
    beta = torch.randn(N, device="cuda", generator=g)
    return (x, gamma, beta)


def reference(x, gamma, beta):
    x = x.double()
    y = torch.nn.functional.layer_norm(x, (N,), gamma.double(), beta.double(), 1e-5)
    return torch.nn.functional.gelu(y)


def build(path):
    return load_program(path).kf_run
