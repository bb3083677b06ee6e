import torch
import torch.nn.functional as F


def swiglu(xy):
    gate, up = xy.chunk(2, dim=-1)
    return F.silu(gate) * up
