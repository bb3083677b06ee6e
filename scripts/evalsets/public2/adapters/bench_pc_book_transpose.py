"""Adapter of the "pc-book-transpose" families (kforecast's own code): the transpose of a
float matrix of ny rows and nx columns through each program's `kf_run` (nx, ny passed as the
book's main() reads them from argv where it does; chapter 5's programs use main()'s own
4096 x 4096). The programs include the book's ../common/common.h (_vendor/pubcuda/common/)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubcuda"))
import pc_common  # noqa: E402

TOL = {"rtol": 0.0, "atol": 0.0}  # a copy: exact
SIZE = 8192 if os.path.basename(os.path.dirname(os.path.abspath(__file__))) == "pc-book-transpose" else 4096


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(SIZE, SIZE, device="cuda", generator=g),)


def reference(a):
    return a.double().t().contiguous()


def build(path):
    run = pc_common.book_entry(path)

    def fn(a):
        ny, nx = a.shape
        out = torch.empty(nx, ny, device=a.device, dtype=a.dtype)
        run(a, None, out, None, ny, nx)
        return out

    return fn
