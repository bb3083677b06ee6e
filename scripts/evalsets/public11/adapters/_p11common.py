"""Helpers shared by public set 11's adapters (kforecast's own code, copied into the set).

An adapter (`<family>/bench.py`) imports this module from the set's root. It puts the set's
stand-in GPU MODE `task` module (`_task/`) and the vendored helper packages (`_vendor/lossfunk`)
on sys.path, and imports a program with progbuild.load_program (a fresh module per file, and
a name and build folder of its own for every torch extension the program builds).
"""

import os
import sys

SET_ROOT = os.path.dirname(os.path.abspath(__file__))
for _p in (os.path.join(SET_ROOT, "_task"), os.path.join(SET_ROOT, "_vendor", "lossfunk")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from progbuild import load_program  # noqa: E402  (measure_programs.py puts it on sys.path)


def load(path):
    return load_program(path)


def kernelbench(path, init=()):
    """A KernelBench-style module: ModelNew when it has one, else Model, on the GPU, in eval
    mode; the call runs without autograd and returns a plain tensor."""
    import torch

    m = load(path)
    cls = getattr(m, "ModelNew", None) or m.Model
    model = cls(*init).cuda().eval()

    def fn(*xs):
        with torch.no_grad():
            return model(*xs)

    return fn


def gpumode(path):
    """A GPU MODE-style program: its custom_kernel(data), data being the inputs' tuple."""
    m = load(path)
    return lambda *data: m.custom_kernel(tuple(data))


def gen(seed):
    import torch

    return torch.Generator(device="cuda").manual_seed(seed)
