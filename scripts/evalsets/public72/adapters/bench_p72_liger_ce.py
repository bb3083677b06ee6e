"""Adapter of p72-liger-ce (kforecast's own code): each version's KFORECAST kf_run(x, target) on
logits x (8192, 32000) fp32 randn and target (8192,) int64 uniform in [0, 32000); output the mean
cross-entropy loss (0-d fp32). Float64 reference: F.cross_entropy in float64."""
import torch
import torch.nn.functional as F
from progbuild import load_program

ROWS, VOCAB = 8192, 32000
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    x = torch.randn(ROWS, VOCAB, device="cuda", dtype=torch.float32, generator=g)
    t = torch.randint(0, VOCAB, (ROWS,), device="cuda", dtype=torch.int64, generator=g)
    return (x, t)


def reference(x, target):
    return F.cross_entropy(x.double(), target, reduction="mean")


def build(path):
    return load_program(path).kf_run
