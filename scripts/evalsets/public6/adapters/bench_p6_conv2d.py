"""Adapter of p6-lc-conv2d (kforecast's own code): 3x3 box blur, float32 4096 x 4096."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import _p6common as p6  # noqa: E402

SIZE = 4096
TOL = {"rtol": 1e-5, "atol": 1e-3}


def make_inputs(seed):
    img = torch.floor(torch.rand(SIZE, SIZE, device="cuda", generator=p6.gen(seed)) * 256)  # pixel values
    box = torch.full((9,), 1.0 / 9.0, device="cuda")  # main()'s filter
    return (img, box)


def reference(img, box):
    return F.conv2d(img.double()[None, None], box.double().view(1, 1, 3, 3), padding=1)[0, 0]


def build(path):
    run = p6.cuda_entry(path, 3)

    def fn(img, box):
        out = torch.empty_like(img)
        p6.check(run(p6.ptr(img), p6.ptr(box), p6.ptr(out)), path)
        return out

    return fn
