"""Helpers shared by the adapters of evaluation set public25 (kforecast's own code, copied
into the set's root by scripts/evalsets/public25/pub25.py).

- `kernelbench_model(path, init)`: progbuild's (a KernelBench-style `ModelNew`, built with
  `init`, every torch extension it builds named apart);
- `set_params(model, by_name=None, by_shape=None)`: copies fixed tensors into the model's
  parameters (by attribute name, else by shape), so that every version computes with the same
  weights whatever initialisation its author chose;
- `vendor()`: puts the set's `_vendor/` (the mamba commits' own files, einops) on sys.path.
"""

import os
import sys

SET_ROOT = os.path.dirname(os.path.abspath(__file__))


def vendor():
    v = os.path.join(SET_ROOT, "_vendor")
    if v not in sys.path:
        sys.path.insert(0, v)


def kernelbench_model(path, init=()):
    import progbuild

    return progbuild.kernelbench_model(path, init)


def set_params(model, by_name=None, by_shape=None):
    import torch

    by_name, by_shape = by_name or {}, by_shape or {}
    with torch.no_grad():
        for name, p in model.named_parameters():
            leaf = name.rsplit(".", 1)[-1]
            src = by_name.get(leaf)
            if src is None or tuple(src.shape) != tuple(p.shape):
                src = by_shape.get(tuple(p.shape))
            if src is not None:
                p.copy_(src.to(p.dtype))
    return model
