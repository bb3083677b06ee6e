"""Rotary-embedding inputs shared by public9's rotary adapters (kforecast's own code,
copied into the set's root): a prefill batch of 16384 tokens, 32 query heads and 8 key
heads (GQA, Llama-3-8B) of head size 128, bf16, with the cos/sin tables of the tokens'
positions (theta 10000), rotate-half convention."""
import torch

TOKENS, HQ, HK, DIM, THETA = 16384, 32, 8, 128, 10000.0
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16 outputs


def tables(tokens=TOKENS):
    """cos, sin of shape (tokens, DIM // 2), float32."""
    inv = 1.0 / THETA ** (torch.arange(0, DIM, 2, device="cuda", dtype=torch.float32) / DIM)
    f = torch.arange(tokens, device="cuda", dtype=torch.float32)[:, None] * inv[None, :]
    return f.cos(), f.sin()


def qk(g, lead=(TOKENS,)):
    q = torch.randn(*lead, HQ, DIM, device="cuda", generator=g).to(torch.bfloat16)
    k = torch.randn(*lead, HK, DIM, device="cuda", generator=g).to(torch.bfloat16)
    return q, k


def rotate(x, cos, sin):
    """float64 rotate-half rotary of x (..., tokens, heads, DIM) with cos/sin (tokens, DIM // 2)."""
    x = x.double()
    c, s = cos.double()[:, None, :], sin.double()[:, None, :]
    x0, x1 = x[..., : DIM // 2], x[..., DIM // 2:]
    return torch.cat((x0 * c - x1 * s, x0 * s + x1 * c), dim=-1)
