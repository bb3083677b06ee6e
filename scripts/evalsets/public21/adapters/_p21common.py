"""Helpers shared by public set 21's adapters (kforecast's own code, copied into the set).

A version is a Python module holding one quantisation op (a Triton kernel and its torch
wrapper, or a torch reference). `entry(path, table)` imports it under a name of its own and
returns fn(x) -> (fp8 values, dequantisation scale), the scale as amax/448 whatever the
version stores: versions that return the quantisation scale (448/amax) are marked "inverse"
in the adapter's table and get the reciprocal of their (small) scale tensor.
"""

import hashlib
import importlib.util
import os
import sys

import torch


def load(path):
    name = "kfp21_" + hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def entry(path, table):
    """table: file name -> (function name in the module, stores_inverse_scale)."""
    base = os.path.basename(path)
    if base not in table:
        raise KeyError(f"the adapter has no entry for {base}")
    func_name, inverse = table[base]
    func = getattr(load(path), func_name)
    if inverse:
        def fn(x):
            y, s = func(x)
            return y, torch.reciprocal(s)
    else:
        def fn(x):
            y, s = func(x)
            return y, s
    return fn


def bf16_input(shape, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(*shape, device="cuda", generator=g).to(torch.bfloat16),)


# fp8 e4m3 keeps 3 mantissa bits: two versions that round x*scale and x/s apart may land one
# fp8 step apart (at most 1/8 relative); below 2^-6 the step is 2^-9.
TOL = {"rtol": 0.13, "atol": 2.5e-3}
