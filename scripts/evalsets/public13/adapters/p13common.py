"""Helpers shared by public set 13's adapters (kforecast's own code, copied into the set).

An adapter (`<family>/bench.py`) imports this module from the set's root. It imports a
version (a Python program file) as a module of its own, named after its path, so versions
that define the same names load side by side.
"""

import hashlib
import importlib.util
import os
import sys


def load_module(path):
    """Imports the Python program at `path` under a name unique to the path."""
    name = "p13prog_" + hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def kernelbench_model(path, *init):
    """A KernelBench-style module's ModelNew (else Model), built with `init` and moved to
    the GPU; returns fn(*inputs) that runs its forward without autograd."""
    import torch

    module = load_module(path)
    cls = getattr(module, "ModelNew", None) or module.Model
    model = cls(*init).cuda().eval()

    def fn(*inputs):
        with torch.no_grad():
            out = model(*inputs)
        return out[0] if isinstance(out, (tuple, list)) else out

    return fn


def tsvc_function(path, kernel):
    """A TSVC program's entry point: `<kernel>_triton` (an LLM attempt) or
    `<kernel>_pytorch` (the repository's baseline). It updates its first array in place;
    fn returns that array."""
    module = load_module(path)
    f = getattr(module, f"{kernel}_triton", None) or getattr(module, f"{kernel}_pytorch", None)
    if f is None:
        raise RuntimeError(f"{path} defines neither {kernel}_triton nor {kernel}_pytorch")

    def fn(*args):
        f(*args)
        return args[0]

    return fn


def generator(seed):
    import torch

    return torch.Generator(device="cuda").manual_seed(seed)
