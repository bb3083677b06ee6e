"""Adapter of p26-kb-crossentropy (kforecast's own code): mean cross-entropy of logits
32768 x 4096 float32 (torch.rand, as the problem's get_inputs) against int64 targets
(KernelBench level 1 problem 95, its own size)."""
import torch
from progbuild import kernelbench_model

B, C = 32768, 4096
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    logits = torch.rand(B, C, device="cuda", generator=g)
    targets = torch.randint(0, C, (B,), device="cuda", generator=g)
    return (logits, targets)


def reference(logits, targets):
    return torch.nn.functional.cross_entropy(logits.double(), targets)


def build(path):
    model = kernelbench_model(path)

    def fn(logits, targets):
        with torch.no_grad():
            return model(logits, targets)
    return fn
