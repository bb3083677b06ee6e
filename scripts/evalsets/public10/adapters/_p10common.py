"""Helpers shared by public set 10's adapters (kforecast's own code, copied to the set's root
as `_p10common.py`).

An adapter (`<family>/bench.py`) imports this module from the set's root. It builds
- a CUDA program with host code into a shared library (nvcc, through progbuild, cached by
  content) and calls its `extern "C"` entry through ctypes;
- a torch extension from a .cu file (and its binding) with torch's `load`, as the sources'
  own scripts build them, under a name and build folder unique to the file's content;
- a KernelBench-style module (`ModelNew`, else `Model`) through progbuild.load_program, which
  gives each `load_inline` extension a name of its own.
"""

import ctypes
import os
import re

import torch
from progbuild import cache_dir, file_hash, load_program, nvcc_library  # noqa: F401


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def check(rc, what):
    if rc != 0:
        raise RuntimeError(f"{what}: CUDA error {rc}")


def cuda_lib(path):
    """The .cu program at `path` (host code and an extern "C" entry) as a loaded library."""
    return nvcc_library(path, flags=("-O3", "-Xlinker", "-Bsymbolic"))


def torch_extension(path, sources, cuda_flags=()):
    """A torch extension built from `sources` (the version's .cu and its binding) with
    torch.utils.cpp_extension.load, named after the version's file and content."""
    from torch.utils.cpp_extension import load

    extra = " ".join(cuda_flags)
    for s in sources:
        with open(s, encoding="utf-8") as f:
            extra += f.read()
    base = re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    name = f"{base}_{file_hash(path, extra)}"
    return load(name=name, sources=list(sources), extra_cuda_cflags=list(cuda_flags),
                build_directory=cache_dir("ext", name), verbose=bool(os.environ.get("EVALSET_VERBOSE")))


def kb_model(path, init):
    """A KernelBench-style module's ModelNew (or Model) built with `init`, on the GPU."""
    module = load_program(path)
    cls = getattr(module, "ModelNew", None) or module.Model
    model = cls(*init).cuda().eval()

    def fn(*inputs):
        with torch.no_grad():
            return model(*inputs)

    return fn


def randn_inputs(seed, shape, count=1):
    """`count` fresh N(0, 1) float32 CUDA tensors of `shape`, drawn from `seed`."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    return tuple(torch.randn(*shape, device="cuda", generator=g) for _ in range(count))
