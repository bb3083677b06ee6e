"""Adapter of p10-fam-attention (kforecast's own code).

manual_attn.py is called as manual_attn(q, k, v); a .cu version is a torch extension built
with its binding (`<version>.bind.cpp`, the source's main.cpp) by torch's `load` with the
flags of its branch's bench.py, and called as that bench.py calls it."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p10common as c  # noqa: E402

SHAPE = (8, 12, 1024, 64)  # batch, heads, sequence, head size: the tensorcore branch's bench.py
TOL = {"rtol": 0.0, "atol": 1e-2}  # bench.py's own check: allclose(rtol=0, atol=1e-02)
FLAGS = {"flash.cu": ["-O2"], "flash_tensorcore.cu": ["-O3", "-use_fast_math"]}


def make_inputs(seed):
    return c.randn_inputs(seed, SHAPE, 3)


def build(path):
    name = os.path.basename(path)
    if name.endswith(".py"):
        module = c.load_program(path)

        def manual(q, k, v):
            with torch.no_grad():
                return module.manual_attn(q, k, v)

        return manual
    ext = c.torch_extension(path, [path[:-3] + ".bind.cpp", path], FLAGS[name])
    if name == "flash_tensorcore.cu":
        return lambda q, k, v: ext.forward(q, k, v, True)
    return lambda q, k, v: ext.forward(q, k, v)


def reference(q, k, v):
    q, k, v = q.double(), k.double(), v.double()
    att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(k.size(-1)), dim=-1)
    return att @ v
