"""Helpers shared by the adapters of evaluation set public46 (kforecast's own code, copied
into the set's root by scripts/evalsets/public46/pub46.py).

`model(path)`: a KernelBench-style version built on the GPU in eval mode: a candidate's
`ModelNew()` (through progbuild, which gives every torch extension it builds with
`load_inline` a name and build folder of its own), or the reference problem file's `Model()`.
`build(path)`: the adapters' `build`: fn(a, b) runs the model without autograd;
`build_loss(path)`: the same, its loss (a 0-d or 1-element tensor) as a 0-d tensor.
"""

import progbuild
import torch


def model(path):
    module = progbuild.load_program(path)
    if hasattr(module, "ModelNew"):
        return progbuild.kernelbench_model(path)
    return module.Model().cuda().eval()


def _build(path, scalar):
    m = model(path)

    def fn(a, b):
        with torch.no_grad():
            out = m(a, b)
        return out.reshape(()) if scalar else out

    return fn


def build(path):
    return _build(path, False)


def build_loss(path):
    return _build(path, True)
