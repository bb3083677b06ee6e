"""Helpers shared by evaluation set public9's adapters (kforecast's own code, copied into
the set's root). An adapter (`<family>/bench.py`) imports this module from the set's root.

- `load(path)` imports a version (a library module as it was at one upstream commit)
  under a name unique to its path, with the set's `_vendor/` (helper modules vendored at
  each version's commit) on sys.path;
- `load_with_extensions(path)` does the same for a program that builds torch extensions;
- `params(fn)` names a function's parameters, so an adapter can call each version's
  entry point the way that version declares it (keyword arguments are added across the
  history; their names are the source's).
"""

import hashlib
import importlib.util
import inspect
import os
import sys

SET_ROOT = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join(SET_ROOT, "_vendor")


def load(path):
    if VENDOR not in sys.path:
        sys.path.insert(0, VENDOR)
    name = "p9prog_" + hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def load_with_extensions(path):
    """`load` for a program that builds torch extensions with `load_inline`: through the
    harness's progbuild.load_program, which gives every extension a name and build folder
    of its own (several versions of one author all name theirs "grayscale_cuda")."""
    if VENDOR not in sys.path:
        sys.path.insert(0, VENDOR)
    from progbuild import load_program

    return load_program(path)


def params(fn):
    return list(inspect.signature(fn).parameters)


def first(out):
    """A function that returns (y, saved statistics...) gives y."""
    return out[0] if isinstance(out, (tuple, list)) else out


def gen(seed):
    import torch

    return torch.Generator(device="cuda").manual_seed(seed)
