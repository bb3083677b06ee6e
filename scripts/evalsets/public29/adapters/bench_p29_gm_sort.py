"""Adapter of p29-gm-sort (kforecast's own code): GPU MODE sort_v2, each version's
`custom_kernel((input, output))` (the reference version's `ref_kernel`) on the problem's own
generate_input(size=100000000, seed=6252 + draw) (its largest ranked benchmark); the family
folder (the problem's task.py and utils.py, which the versions import) goes first on sys.path.
Exact comparison; the float64 reference is torch.sort of the input in float64."""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = 100_000_000
TOL = {"rtol": 0.0, "atol": 0.0}
_REF = {}


def _on_path():
    if sys.path[0] != HERE:
        sys.path.insert(0, HERE)
    for m in ("task", "utils", "reference"):
        mod = sys.modules.get(m)
        if mod is not None and os.path.dirname(os.path.abspath(getattr(mod, "__file__", "") or "")) != HERE:
            del sys.modules[m]


def _load(path):
    _on_path()
    from progbuild import load_program
    return load_program(path)


def make_inputs(seed):
    if "mod" not in _REF:
        _REF["mod"] = _load(os.path.join(HERE, "v1_reference.py"))
    inp, out = _REF["mod"].generate_input(size=SIZE, seed=6252 + int(seed) % 1000)
    return (inp, out)


def reference(inp, out):
    return torch.sort(inp.double())[0]


def build(path):
    mod = _load(path)
    f = getattr(mod, "custom_kernel", None) or mod.ref_kernel

    def fn(inp, out):
        return f((inp, out))
    return fn
