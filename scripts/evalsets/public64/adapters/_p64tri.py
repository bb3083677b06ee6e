"""Shared by the public64 TriMul adapters (kforecast's own code; pub64.py copies it into the set's
root): inputs from the problem's own generate_input (its reference.py, the family's reference
version), the float64 reference (the problem's TriMul forward written out in torch) and the build
of a version's kf_run(data) through _p64fe.build."""
import os

import torch

import _p64fe as fe

# bf16 (fp16 in one version) operands of the triangle product over seqlen terms, LayerNorm after it
TOL = {"rtol": 2e-2, "atol": 2e-2}


def make_inputs(fam_dir, cfg, base_seed, seed):
    ref = fe.load(os.path.join(fam_dir, "reference.py"))
    x, mask, weights, config = ref.generate_input(seed=(base_seed + seed) % (1 << 31), **cfg)
    return (x, mask, weights, config)


def reference(x, mask, weights, config):
    w = {k: v.double() for k, v in weights.items() if isinstance(v, torch.Tensor)}
    F = torch.nn.functional
    d, h = config["dim"], config["hidden_dim"]
    xn = F.layer_norm(x.double(), (d,), w["norm.weight"], w["norm.bias"])
    m = mask.double().unsqueeze(-1)
    left = F.linear(xn, w["left_proj.weight"]) * m * torch.sigmoid(F.linear(xn, w["left_gate.weight"]))
    right = F.linear(xn, w["right_proj.weight"]) * m * torch.sigmoid(F.linear(xn, w["right_gate.weight"]))
    out_gate = torch.sigmoid(F.linear(xn, w["out_gate.weight"]))
    out = torch.einsum("... i k d, ... j k d -> ... i j d", left, right)
    out = F.layer_norm(out, (h,), w["to_out_norm.weight"], w["to_out_norm.bias"]) * out_gate
    return F.linear(out, w["to_out.weight"])


def _call(entry, x, mask, weights, config):
    with torch.no_grad():
        out = entry((x, mask, weights, config))
    return out[0] if isinstance(out, (tuple, list)) else out


def build(path):
    return fe.build(path, _call)
