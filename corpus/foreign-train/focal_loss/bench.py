"""focal_loss: sigmoid focal loss (alpha 0.25, gamma 2), mean over all elements, GPU MODE-style
Triton programs: custom_kernel((logits f32, targets f32 in {0, 1})) -> 0-dim f32 tensor."""
import torch
from progbuild import load_program

ROWS, COLS = 16384, 4099  # 67M logits + 67M targets, 537 MB read; not a multiple of any block
ALPHA = 0.25
TOL = {"rtol": 1e-4, "atol": 1e-7}  # a mean of 67M terms summed in different orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    logits = 2.0 * torch.randn(ROWS, COLS, device="cuda", generator=g)
    targets = (torch.rand(ROWS, COLS, device="cuda", generator=g) < 0.1).float()
    return logits, targets


def build(path):
    prog = load_program(path)
    return lambda logits, targets: prog.custom_kernel((logits, targets))


def reference(logits, targets):
    x, t = logits.double(), targets.double()
    p = torch.sigmoid(x)
    ce = x.clamp_min(0) - x * t + torch.log1p(torch.exp(-x.abs()))
    p_t = p * t + (1 - p) * (1 - t)
    a_t = ALPHA * t + (1 - ALPHA) * (1 - t)
    return (a_t * (1 - p_t) ** 2 * ce).mean()
