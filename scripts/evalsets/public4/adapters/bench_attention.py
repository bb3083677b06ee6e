"""Adapter of p4-attention (kforecast's own code): F.sdpa, and gau-nernst's attention_vK
torch extensions (each version one .cu with its binding, built with cpp_extension.load,
07_attention/common.h vendored; main.py's extra flag -lineinfo)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

import _p4common as p4  # noqa: E402

BS, NH, LQ, LKV, D = 4, 8, 4096, 8192, 128  # main.py's defaults
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16 outputs


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)

    def gen(*shape):  # main.py's generate_input: randn + 0.5, bf16
        return torch.randn(*shape, device="cuda", generator=g).add(0.5).bfloat16()

    return (gen(BS, NH, LQ, D), gen(BS, NH, LKV, D), gen(BS, NH, LKV, D))


def build(path):
    if path.endswith(".py"):
        m = p4.load_py(path)
        return lambda q, k, v: m.sdpa(q, k, v)
    mod = p4.load_ext(path, [os.path.join(p4.VENDOR, "learn-cuda", "07_attention")], ["-lineinfo"])
    k = os.path.splitext(os.path.basename(path))[0].rsplit("_v", 1)[1]
    return getattr(mod, f"sdpa_v{k}")
