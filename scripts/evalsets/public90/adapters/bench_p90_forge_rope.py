"""Adapter of p90-forge-rope (kforecast's own code): each version's KFORECAST kf_run(q, k, cos, sin)
(the version's own apply_rope, HF split-half rotary embedding on Q and K at once) on q (4, 32,
4096, 128) and k (4, 8, 4096, 128) bf16 randn (Qwen3-8B heads, GQA 4:1, 4 x 4096 tokens) and cos,
sin (1, 4096, 128) bf16 of positions 0..4095 with base 1e6 (HF's cat(freqs, freqs) layout);
outputs q_out, k_out bf16. Float64 reference: q cos + rotate_half(q) sin (and the same for k) in
float64 from the bf16 inputs. The tolerance allows the torch version's three bf16 roundings
(two products and their sum, half an ulp each, |q| up to ~6: 0.016 each)."""
import torch
from progbuild import load_program

B, HQ, HK, S, D = 4, 32, 8, 4096, 128
TOL = {"rtol": 1e-2, "atol": 5e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    q = torch.randn(B, HQ, S, D, device="cuda", dtype=torch.bfloat16, generator=g)
    k = torch.randn(B, HK, S, D, device="cuda", dtype=torch.bfloat16, generator=g)
    inv = 1.0 / (1e6 ** (torch.arange(0, D, 2, device="cuda", dtype=torch.float64) / D))
    freqs = torch.arange(S, device="cuda", dtype=torch.float64)[:, None] * inv[None, :]
    emb = torch.cat([freqs, freqs], -1)
    return q, k, emb.cos()[None].to(torch.bfloat16), emb.sin()[None].to(torch.bfloat16)


def _rot(t):
    h = t.shape[-1] // 2
    return torch.cat([-t[..., h:], t[..., :h]], -1)


def reference(q, k, cos, sin):
    c, s = cos.double()[:, None], sin.double()[:, None]
    qd, kd = q.double(), k.double()
    return qd * c + _rot(qd) * s, kd * c + _rot(kd) * s


def build(path):
    return load_program(path).kf_run
