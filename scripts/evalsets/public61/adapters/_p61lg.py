"""Shared by the public61 LeetGPU adapters (kforecast's own code; pub61.py copies it into the set's
root).

Every version takes the challenge's arguments in the challenge's order (tensors, then sizes) and
writes its output argument in place: the reference version is a torch program with
`kf_run(tensors..., sizes...)`; a CUDA version is a `.cu` file with host code whose KFORECAST
`extern "C" kf_run(pointers..., ints...)` calls the author's `solve`, built with
progbuild.nvcc_library (nvcc -O3) and called with the tensors' device addresses.
"""

import ctypes

import torch


def build(path, outputs):
    """fn(*args) runs the version at `path` and returns the output argument(s) at `outputs`."""
    if path.endswith(".py"):
        from progbuild import load_program
        f = load_program(path).kf_run

        def call(*args):
            f(*args)
    else:
        from progbuild import nvcc_library, ptr
        lib = nvcc_library(path, flags=("-O3",))
        lib.kf_run.restype = None

        def call(*args):
            lib.kf_run(*[ptr(a) if isinstance(a, torch.Tensor) else ctypes.c_int(int(a)) for a in args])

    def fn(*args):
        call(*args)
        outs = tuple(args[i] for i in outputs)
        return outs[0] if len(outs) == 1 else outs

    return fn


def gen(seed):
    return torch.Generator(device="cuda").manual_seed(seed)
