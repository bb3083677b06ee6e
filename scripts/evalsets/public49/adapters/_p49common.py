"""Shared by the public49 adapters (kforecast's own code; pub49.py copies it into the set's root).

Every p49 version is either a candidate module defining `ModelNew` (CUDA built by `load_inline`
at import) or the KernelBench problem file defining `Model`. `build(path)` returns fn(*inputs)
that runs the version's model on the GPU, eval mode, without autograd; `progbuild` gives each
candidate's extension a name and build folder of its own, so equally named extensions of two
rounds load side by side in one process.
"""

import progbuild
import torch


def build(path):
    module = progbuild.load_program(path)
    if hasattr(module, "ModelNew"):
        net = progbuild.kernelbench_model(path)
    else:
        net = module.Model().cuda().eval()

    def fn(*inputs):
        with torch.no_grad():
            return net(*inputs)

    return fn
