"""Adapter of the p19-cai-rotary family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p19common as kf  # noqa: E402

SEQS, SEQ_LEN, HEADS, HEAD_DIM = 2, 4096, 32, 128
TOL = {"rtol": 1e-2, "atol": 1e-2}  # fp16 outputs


def make_inputs(seed):
    import torch

    g = torch.Generator(device="cuda").manual_seed(seed)
    t = SEQS * SEQ_LEN
    q = torch.randn(t, HEADS, HEAD_DIM, device="cuda", generator=g).half()
    k = torch.randn(t, HEADS, HEAD_DIM, device="cuda", generator=g).half()
    inv = 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2, device="cuda", dtype=torch.float32) / HEAD_DIM))
    ang = torch.arange(SEQ_LEN, device="cuda", dtype=torch.float32)[:, None] * inv[None, :]
    cos_cache, sin_cache = ang.cos().half(), ang.sin().half()
    cos_tok, sin_tok = cos_cache.repeat(SEQS, 1), sin_cache.repeat(SEQS, 1)
    lengths = torch.full((SEQS,), SEQ_LEN, device="cuda", dtype=torch.int32)
    return (q, k, cos_tok, sin_tok, cos_cache, sin_cache, lengths)


def build(path):
    return kf.entry(path)
