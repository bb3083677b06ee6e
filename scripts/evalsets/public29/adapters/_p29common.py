"""Helpers shared by the adapters of evaluation set public29 (kforecast's own code, copied
into the set's root by scripts/evalsets/public29/pub29.py).

- `load(path)`: progbuild's `load_program` (each version imported as a fresh module);
- `gen(seed)`: a CUDA torch.Generator seeded with `seed`.
"""

import torch


def load(path):
    from progbuild import load_program

    return load_program(path)


def gen(seed):
    return torch.Generator(device="cuda").manual_seed(int(seed) % (1 << 62))
