"""Helpers shared by the adapters of evaluation set public50 (kforecast's own code, copied
into the set's root by scripts/evalsets/public50/pub50.py).

Every version, reference included, is a KernelBench-v3 module whose `Model(*init)` computes
the problem: `model(path, init)` imports it through progbuild (a fresh module; every torch
extension it builds with `load_inline`/`load`, at import or in `__init__`, gets a name and
build folder of its own) and builds `Model(*init)` on the GPU in eval mode.
`build(path, init, shape)`: the adapters' `build`; fn(*inputs) runs the model without autograd
and reshapes its output to `shape` when one is given (a 0-d loss, a flat vector).
"""

import progbuild
import torch


def model(path, init=()):
    module = progbuild.load_program(path)
    with progbuild._unique_torch_extensions(progbuild.file_hash(path)):
        m = module.Model(*init)
    return m.cuda().eval()


def build(path, init=(), shape=None):
    m = model(path, init)

    def fn(*inputs):
        with torch.no_grad():
            out = m(*inputs)
        return out if shape is None else out.reshape(shape)

    return fn
