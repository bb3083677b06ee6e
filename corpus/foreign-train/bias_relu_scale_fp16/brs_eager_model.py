import torch
import torch.nn as nn


class Model(nn.Module):
    """Adds a bias, applies ReLU, scales, and returns half precision."""

    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, b):
        x = x + b
        x = torch.relu(x)
        x = x * self.scale
        return x.to(torch.half)


batch_size = 16384
features = 8200


def get_inputs():
    x = torch.randn(batch_size, features, device="cuda", dtype=torch.half)
    b = torch.randn(features, device="cuda", dtype=torch.half)
    return [x, b]


def get_init_inputs():
    return [0.75]
