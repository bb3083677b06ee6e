"""rope_rotary: rotary position embedding (half-split / NeoX layout) on x [batch, seq, heads, dim],
Triton wrappers: apply_rope(x f32, inv_freq f32 [dim/2]) -> new tensor; positions 0..seq-1."""
import torch
from progbuild import load_program

B, S, H, D = 8, 2048, 32, 128  # 256 MB in, 256 MB out
TOL = {"rtol": 1e-4, "atol": 2e-4}  # cos/sin of angles up to 2047 rad, float32


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(B, S, H, D, device="cuda", generator=g)
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, D, 2, device="cuda", dtype=torch.float32) / D))
    return x, inv_freq


def build(path):
    prog = load_program(path)
    return prog.apply_rope


def reference(x, inv_freq):
    # the angle is rounded to float32 as every version does, the rest in float64
    pos = torch.arange(x.shape[1], device=x.device, dtype=torch.float32)
    ang = (pos[:, None] * inv_freq[None, :]).double()[None, :, None, :]
    cos, sin = ang.cos(), ang.sin()
    x = x.double()
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
