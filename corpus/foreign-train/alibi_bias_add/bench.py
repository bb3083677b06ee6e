"""alibi_bias_add: ALiBi linear position bias added to attention scores (no softmax), Triton with
block pointers / strides: alibi_add(scores f32 [B, H, S, S], slopes f32 [H]) -> new tensor with
out[b, h, i, j] = scores[b, h, i, j] + slopes[h] * (j - i)."""
import torch
from progbuild import load_program

B, H, S = 4, 16, 1000  # 256 MB in, 256 MB out; S is not a multiple of a tile
TOL = {"rtol": 1e-6, "atol": 1e-4}  # biases up to ~500: a fused multiply-add may round differently


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    scores = torch.randn(B, H, S, S, device="cuda", generator=g)
    slopes = torch.tensor([2.0 ** (-8.0 * (h + 1) / H) for h in range(H)], device="cuda")
    return scores, slopes


def build(path):
    prog = load_program(path)
    return prog.alibi_add


def reference(scores, slopes):
    n = scores.shape[-1]
    pos = torch.arange(n, device=scores.device, dtype=torch.float64)
    rel = pos[None, :] - pos[:, None]
    return scores.double() + slopes.double()[None, :, None, None] * rel[None, None]
