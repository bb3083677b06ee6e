"""Adapter of p33-fastllm-rotary (kforecast's own code): Fast-LLM's in-place Triton rotary
embedding triton_rotary_(input, frequencies) on a bf16 (4, 4096, 32, 128) query tensor
(batch, sequence, heads, head size; 2^26 elements). The frequencies are the library's layout,
one float32 row of 2 * 64 values a position: cos(p * theta_i) for the 64 real lanes, then
sin(p * theta_i), theta_i = 10000^(-i/64) (the first half of each head is the real part, the
second the imaginary). The kernel works in place: the adapter clones the input before each
call (a 128 MB copy in every version's time). Float64 reference: the complex rotation."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p33common as kf  # noqa: E402

B, S, H, D = 4, 4096, 32, 128
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = kf.gen(seed)
    x = torch.randn(B, S, H, D, device="cuda", generator=g).to(torch.bfloat16)
    half = D // 2
    theta = 10000.0 ** (-torch.arange(half, device="cuda", dtype=torch.float64) / half)
    ang = torch.arange(S, device="cuda", dtype=torch.float64)[:, None] * theta[None, :]
    freqs = torch.cat([torch.cos(ang), torch.sin(ang)], dim=-1).float().contiguous()
    return x, freqs


def reference(x, freqs):
    half = D // 2
    xd = x.double()
    re, im = xd[..., :half], xd[..., half:]
    c = freqs.double()[None, :, None, :half]
    s = freqs.double()[None, :, None, half:]
    return torch.cat([re * c - im * s, im * c + re * s], dim=-1)


def build(path):
    f = kf.load(path).kf_entry

    def fn(x, freqs):
        return f(x.clone(), freqs)
    return fn
