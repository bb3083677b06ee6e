"""gaussian_blur_5x5: 5x5 Gaussian blur (zero padding) of a one-channel float32 image, cupy
programs: gaussian_blur(img cupy f32 [H, W], taps cupy f32 [5]) -> [H, W]; the 5x5 filter is
the outer product of the 1-D taps (separable)."""
import cupy as cp
import torch
from progbuild import load_program

H, W = 8192, 8190  # 268 MB in, 268 MB out; W is not a multiple of a tile
TOL = {"rtol": 1e-5, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    img = torch.rand(H, W, device="cuda", generator=g)
    sigma = 1.0 + 0.2 * torch.rand(1, generator=torch.Generator().manual_seed(seed)).item()
    k = torch.arange(-2, 3, dtype=torch.float64)
    taps = torch.exp(-(k * k) / (2 * sigma * sigma))
    taps = (taps / taps.sum()).float().cuda()
    return img, taps


def build(path):
    prog = load_program(path)
    return lambda img, taps: torch.from_dlpack(prog.gaussian_blur(cp.from_dlpack(img), cp.from_dlpack(taps)))


def reference(img, taps):
    t = taps.double()
    k2 = torch.outer(t, t)[None, None]
    return torch.nn.functional.conv2d(img.double()[None, None], k2, padding=2)[0, 0]
