# A KernelBench-style problem (ours): the reference Model and the inputs it is run on.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=1)


batch_size = 4096
dim = 16384


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
