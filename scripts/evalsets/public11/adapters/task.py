# Evaluation set public11 of kforecast: a stand-in for GPU MODE's per-problem `task` module,
# written by scripts/evalsets/public11/pub11.py (KFORECAST's own code, not a public source).
# The submissions only import the two type names from it.
from typing import TypeVar

import torch

input_t = TypeVar("input_t", bound=tuple)
output_t = TypeVar("output_t", bound=torch.Tensor)
