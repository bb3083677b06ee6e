"""Adapter of p63-ll-rmsnorm (kforecast's own code): each version's `kf_run(x, w)` (lite_llama's
RMSNorm functions, or its test's torch line) on fp16 x (16384, 4096) drawn as the test draws it
(-2.3 + 0.5 * randn) and fp16 w (rand); output x / sqrt(mean(x^2) + 1e-5) * w in fp16."""
import torch
from progbuild import load_program

M, N = 16384, 4096
EPS = 1e-5
# outputs up to ~2 in fp16 (rounding ~1e-3); the kernels that cast the normalised row to the
# weight's dtype before scaling (as HF does) round twice.
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = (-2.3 + 0.5 * torch.randn(M, N, device="cuda", generator=g)).half()
    w = torch.rand(N, device="cuda", generator=g).half()
    return (x, w)


def reference(x, w):
    x = x.double()
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * w.double()


def build(path):
    return load_program(path).kf_run
