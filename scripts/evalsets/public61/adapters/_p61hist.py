"""Shared by the public61 histogram adapters (kforecast's own code; pub61.py copies it into the
set's root).

GPU MODE problem histogram_v2: `custom_kernel((data, output))` counts the uint8 values of data
(size,) into output (256,) int64. Inputs follow the problem's generate_input (uniform values in
[0, 256), then `contention`% of the elements set to one random value), drawn here at 2^28
elements with a uint8 mask draw instead of its float32 one (4x less memory; the same law). The
float64 reference is torch.bincount in float64. Each version runs through its KFORECAST
`kf_run(data, output)`.

Both CUDA submissions register `TORCH_LIBRARY(my_module, m)` and call
`torch.ops.my_module.launch`; two such libraries cannot load in one process (the timing process
loads every version of a family). `build` therefore renames the namespace in the CUDA string the
version hands to load_inline to `my_module_<hash of the file>` and gives the imported module a
`torch` whose `ops.my_module` is that namespace. The kernels and launch code are untouched.
"""

import os
import sys

import torch

TOL = {"rtol": 0.0, "atol": 0.0}  # counts: exact


def _on_path(here):
    if sys.path[0] != here:
        sys.path.insert(0, here)
    for m in ("task", "utils"):
        mod = sys.modules.get(m)
        if mod is not None and os.path.dirname(os.path.abspath(getattr(mod, "__file__", "") or "")) != here:
            del sys.modules[m]


def reference(data, output):
    return torch.bincount(data.long(), minlength=256).double()


class _Ops:
    def __init__(self, ns):
        self._ns = ns

    def __getattr__(self, name):
        return getattr(torch.ops, self._ns if name == "my_module" else name)


class _Torch:
    """`torch` for a version module whose op namespace was renamed (see the module doc)."""

    def __init__(self, ns):
        self.ops = _Ops(ns)

    def __getattr__(self, name):
        return getattr(torch, name)


def hist_adapter(here, size, contention, seed0):
    def make_inputs(seed):
        g = torch.Generator(device="cuda").manual_seed(seed0 + int(seed))
        data = torch.randint(0, 256, (size,), device="cuda", dtype=torch.uint8, generator=g)
        evil = torch.randint(0, 256, (), device="cuda", dtype=torch.uint8, generator=g)
        # P(u8 < t) = t / 256 with t = round(contention * 2.56): the problem's share of collisions
        loc = torch.randint(0, 256, (size,), device="cuda", dtype=torch.uint8, generator=g) < round(contention * 2.56)
        data[loc] = evil
        del loc
        output = torch.empty(256, device="cuda", dtype=torch.int64)
        return data.contiguous(), output

    def build(path):
        import torch.utils.cpp_extension as ext

        from progbuild import file_hash, load_program
        _on_path(here)
        ns = "my_module_" + file_hash(path)
        saved = ext.load_inline

        def load_inline(*args, **kwargs):
            src = kwargs.get("cuda_sources")
            if isinstance(src, str) and "TORCH_LIBRARY(my_module," in src:
                kwargs["cuda_sources"] = src.replace("TORCH_LIBRARY(my_module,", f"TORCH_LIBRARY({ns},")
            return saved(*args, **kwargs)

        ext.load_inline = load_inline
        try:
            mod = load_program(path)
        finally:
            ext.load_inline = saved
        if "TORCH_LIBRARY(my_module," in str(getattr(mod, "CUDA_SRC", "")):
            mod.torch = _Torch(ns)
        return mod.kf_run

    return make_inputs, build
