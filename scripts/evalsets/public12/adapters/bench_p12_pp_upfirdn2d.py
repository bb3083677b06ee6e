"""Adapter of p12-pp-upfirdn2d (kforecast's own code): StyleGAN2's upfirdn2d torch
extensions, called as the source's profile.py calls them: 4096 x 1 x 64 x 64 floats from
torch.rand, the normalised [1,3,3,1] outer-product kernel, up 1, down 1, pad 2 each side.

Each version is one .cu file (kernel, then its pybind11 binding) built with
torch.utils.cpp_extension.load. The original takes (major, h, w, minor) input, the others
(n, 1, h, w): the same memory for minor = 1. The author's later versions take a
force_generic flag (passed False, as profile.py does)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

from progbuild import cache_dir, file_hash, file_lock  # noqa: E402

N, H, W = 4096, 64, 64
PAD = 2
TOL = {"rtol": 1e-5, "atol": 1e-6}
FORCE_FLAG = ("upfirdn2d_new_9c8feb0.cu", "upfirdn2d_new_8a21736.cu", "upfirdn2d_new_c4678b1.cu")


def _kernel():
    k = torch.tensor([1, 3, 3, 1], dtype=torch.float32, device="cuda")
    k = k[None, :] * k[:, None]
    return k / k.sum()


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand((N, 1, H, W), dtype=torch.float32, device="cuda", generator=g), _kernel())


def reference(x, k):
    x64 = torch.nn.functional.pad(x.to(torch.float64), (PAD, PAD, PAD, PAD))
    w = torch.flip(k.to(torch.float64), [0, 1])[None, None]
    return torch.nn.functional.conv2d(x64, w)


def build(path):
    from torch.utils.cpp_extension import load

    name = "p12_upfirdn2d_" + file_hash(path)
    build_dir = cache_dir("ext", name)
    with file_lock(build_dir):
        mod = load(name=name, sources=[path], build_directory=build_dir, verbose=False)
    base = os.path.basename(path)
    minor_last = base == "upfirdn2d_original.cu"
    extra = (False,) if base in FORCE_FLAG else ()

    def fn(x, k):
        xin = x.view(N, H, W, 1) if minor_last else x
        return mod.upfirdn2d(xin, k, 1, 1, 1, 1, PAD, PAD, PAD, PAD, *extra)

    return fn
