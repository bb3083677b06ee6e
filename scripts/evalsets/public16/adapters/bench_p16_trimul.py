"""Adapter of the p16-trimul-evolve family (kforecast's own code).

Each version is a GPU MODE TriMul submission, `custom_kernel(data)` with
data = (input [bs, N, N, dim], mask [bs, N, N], weights (dict), config (dict)). Inputs are the
problem's largest benchmark shape; the weights are drawn here (the tensors are passed flat so
the harness can clone them, and the dict is rebuilt per call)."""
import math
import torch

from progbuild import load_program  # the harness puts its folder on sys.path

BS, SEQ, DIM, HIDDEN = 1, 1024, 384, 128
# bf16/TF32 contractions against the baseline's bf16 einsum (GPU MODE's check: rtol = atol = 2e-2)
TOL = {"rtol": 2e-2, "atol": 2e-2}
NAMES = [("norm.weight", (DIM,)), ("norm.bias", (DIM,)),
         ("left_proj.weight", (HIDDEN, DIM)), ("right_proj.weight", (HIDDEN, DIM)),
         ("left_gate.weight", (HIDDEN, DIM)), ("right_gate.weight", (HIDDEN, DIM)),
         ("out_gate.weight", (HIDDEN, DIM)),
         ("to_out_norm.weight", (HIDDEN,)), ("to_out_norm.bias", (HIDDEN,)),
         ("to_out.weight", (DIM, HIDDEN))]


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(BS, SEQ, SEQ, DIM, device="cuda", generator=g)
    mask = torch.randint(0, 2, (BS, SEQ, SEQ), device="cuda", generator=g).to(torch.float32)
    ws = []
    for name, shape in NAMES:
        if name.endswith("norm.weight"):
            w = 1.0 + 0.1 * torch.randn(*shape, device="cuda", generator=g)
        elif name.endswith("bias"):
            w = 0.1 * torch.randn(*shape, device="cuda", generator=g)
        else:
            w = torch.randn(*shape, device="cuda", generator=g) / math.sqrt(shape[1])
        ws.append(w)
    return (x, mask, *ws)


def build(path):
    mod = load_program(path)
    config = {"dim": DIM, "hidden_dim": HIDDEN}

    def fn(x, mask, *ws):
        weights = {name: w for (name, _), w in zip(NAMES, ws)}
        return mod.custom_kernel((x, mask, weights, config))

    return fn
