"""Adapter of p36-pr-gm-matmul (kforecast's own code): GPU MODE matmul_v2, each version's
`custom_kernel((a, b, c))` (the reference version's `ref_kernel((a, b))`) on the problem's own
generate_input(m=2048, n=3072, k=2048, seed=32412 + draw) (a ranked benchmark shape); the
family folder (the problem's task.py and utils.py, which the versions import) goes first on
sys.path. float16 output; the float64 reference is a @ b in float64."""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
M, N, K = 2048, 3072, 2048
TOL = {"rtol": 2e-3, "atol": 1e-2}
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
        _REF["mod"] = _load(os.path.join(HERE, "v0_reference.py"))
    return tuple(_REF["mod"].generate_input(m=M, n=N, k=K, seed=32412 + int(seed) % 100000))


def reference(a, b, c):
    return a.double() @ b.double()


def build(path):
    mod = _load(path)
    f = getattr(mod, "custom_kernel", None)
    if f is None:
        ref = mod.ref_kernel

        def fn(a, b, c):
            return ref((a, b))
        return fn

    def fn(a, b, c):
        return f((a, b, c))
    return fn
