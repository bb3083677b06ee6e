"""cosine_sim_rows: cosine similarity of row pairs, Triton library-style wrappers
(autograd.Function, MAX_FUSED_SIZE, autotune/heuristics): cosine_similarity(x1, x2) -> [rows] f32."""
import torch
from progbuild import load_program

ROWS, COLS = 32768, 1000  # two 131 MB inputs; the row length is not a power of two
TOL = {"rtol": 1e-4, "atol": 1e-5}  # dot products of 1000 terms in different orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x1 = torch.randn(ROWS, COLS, device="cuda", generator=g)
    x2 = 0.6 * x1 + 0.8 * torch.randn(ROWS, COLS, device="cuda", generator=g)
    return x1, x2


def build(path):
    prog = load_program(path)
    return lambda x1, x2: prog.cosine_similarity(x1, x2)


def reference(x1, x2):
    a, b = x1.double(), x2.double()
    dot = (a * b).sum(-1)
    return dot / (a.norm(dim=-1) * b.norm(dim=-1)).clamp_min(1e-8)
