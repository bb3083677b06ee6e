"""Adapter of p26-kb-conv2d (kforecast's own code): 2-D convolution, 16 -> 128 channels, 3 x 3,
no bias, stride 1, no padding, of x 2 x 16 x 1024 x 1024 float32 drawn like the problem's
get_inputs (torch.rand) (KernelBench level 1 problem 63, Model/ModelNew(16, 128, 3)). One fixed
random weight is copied into every version's 128 x 16 x 3 x 3 parameter, whatever its name."""
import torch
from progbuild import kernelbench_model

IN, OUT, K = 16, 128, 3
SHAPE = (2, IN, 1024, 1024)
# the torch reference (nn.Conv2d) runs cuDNN with TF32 convolutions, torch's default
TOL = {"rtol": 1e-2, "atol": 5e-3}


def weight():
    g = torch.Generator(device="cpu").manual_seed(2026)
    return (torch.randn(OUT, IN, K, K, generator=g) / (IN * K * K) ** 0.5).cuda()


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(SHAPE, device="cuda", generator=g),)


def reference(x):
    return torch.nn.functional.conv2d(x.double(), weight().double())


def build(path):
    model = kernelbench_model(path, (IN, OUT, K))
    w = weight()
    with torch.no_grad():
        for _, p in model.named_parameters():
            if tuple(p.shape) == tuple(w.shape):
                p.copy_(w.to(p.dtype))

    def fn(x):
        with torch.no_grad():
            return model(x)
    return fn
