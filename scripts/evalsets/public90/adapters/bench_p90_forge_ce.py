"""Adapter of p90-forge-ce (kforecast's own code): each version's KFORECAST kf_run(logits, target)
(the version's own forge_cross_entropy, reduction "none", no grad) on logits (4096, 151936) bf16
randn (Qwen vocabulary, 4096 tokens) and target (4096,) int64 uniform in [0, 151936); output the
per-token loss (4096,) (bf16 in the Triton versions). Float64 reference: cross entropy of the
logits in float64. The tolerance allows a bf16 loss of ~12.5 (one ulp 0.0625)."""
import torch
import torch.nn.functional as F
from progbuild import load_program

ROWS, VOCAB = 4096, 151936
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    logits = torch.randn(ROWS, VOCAB, device="cuda", dtype=torch.bfloat16, generator=g)
    target = torch.randint(0, VOCAB, (ROWS,), device="cuda", dtype=torch.int64, generator=g)
    return logits, target


def reference(logits, target):
    return F.cross_entropy(logits.double(), target, reduction="none")


def build(path):
    return load_program(path).kf_run
