"""Adapter of p10-kt-pnpoly (kforecast's own code).

The reference version is the naive kernel with an `extern "C" kf_run(bitmap, points,
vertices, n)`; the others are called through the source's own host function
`cn_pnpoly_host(bitmap, points, vertices, n)`, which reads the polygon from host memory.
Inputs as pnpoly.py draws them: 2e7 N(0,1) points, a 600-vertex polygon on the unit circle
(random angles, sorted in descending order)."""
import ctypes
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p10common as c  # noqa: E402

N = 20_000_000
VERTICES = 600


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    points = torch.randn(N, 2, device="cuda", generator=g)
    gc = torch.Generator().manual_seed(seed)
    angles = torch.sort(torch.rand(VERTICES, generator=gc, dtype=torch.float64) * 2.0 * math.pi,
                        descending=True).values
    vertices = torch.stack([torch.cos(angles), torch.sin(angles)], 1).to(torch.float32).contiguous()  # host
    return (points, vertices)


def build(path):
    lib = c.cuda_lib(path)
    if hasattr(lib, "kf_run"):
        run = lib.kf_run
        run.restype = ctypes.c_int
    else:
        run = lib.cn_pnpoly_host
        run.restype = ctypes.c_float
    run.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int]

    def fn(points, vertices):
        vertices = vertices.contiguous()
        bitmap = torch.empty(points.shape[0], device=points.device, dtype=torch.int32)
        rc = run(c.ptr(bitmap), c.ptr(points), ctypes.c_void_p(vertices.data_ptr()), points.shape[0])
        if isinstance(rc, int):
            c.check(rc, path)
        elif rc < 0:
            raise RuntimeError(f"{path}: cn_pnpoly_host reports too many resources requested for launch")
        return bitmap

    return fn
