"""Helpers shared by set public19's adapters (kforecast's own code, copied into the set).

Programs are imported as fresh modules with the set's `_vendor/` folder on sys.path (the
few package modules they import); each defines `kf_entry`, marked as ours.
"""

import math
import os
import random
import sys

SET_ROOT = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join(SET_ROOT, "_vendor")


def load(path):
    if VENDOR not in sys.path:
        sys.path.insert(0, VENDOR)
    from progbuild import load_program

    return load_program(path)


def entry(path):
    return load(path).kf_entry


def jagged_inputs(seed, B, M, max_seqlen, sparsity, margin=0.3):
    """A (B, *, M) jagged tensor as tritonbench's generate_random_nested_tensors draws it
    (lengths uniform around max_seqlen * (1 - sparsity)), as (values, offsets)."""
    import torch

    rng = random.Random(seed)
    avg = math.floor(max_seqlen * (1 - sparsity))
    m = math.floor(max_seqlen * margin)
    lo, hi = max(avg - m, 1), min(avg + m, max_seqlen)
    seqlens = [rng.randint(lo, hi) for _ in range(B)]
    g = torch.Generator(device="cuda").manual_seed(seed)
    values = torch.randn((sum(seqlens), M), device="cuda", generator=g, dtype=torch.float32)
    offsets = torch.tensor([0] + seqlens, device="cuda", dtype=torch.int64).cumsum(0)
    return values, offsets
