"""Shared adapter code of set public91's INT8 dequant-GEMV families (kforecast's own code,
copied to the set's root by the builder): output = x @ (weight_int8 * scale[:, None]).T + bias,
inputs drawn as the source's benchmark draws them (x normal in the activation dtype,
weight_int8 uniform integers in [-8, 8), scale uniform [0, 1) fp32, bias normal fp32), each
version called as kf_run(x, weight_int8, scale, bias); see _p91common.py. Float64 reference:
the same formula in float64."""
import torch

import _p91common as common


def adapter(rows, in_features, out_features, dtype):
    def make_inputs(seed):
        g = torch.Generator(device="cuda").manual_seed(int(seed))
        x = torch.randn(rows, in_features, device="cuda", dtype=dtype, generator=g)
        weight_int8 = torch.randint(-8, 8, (out_features, in_features), device="cuda",
                                    dtype=torch.int8, generator=g)
        scale = torch.rand(out_features, device="cuda", dtype=torch.float32, generator=g)
        bias = torch.randn(out_features, device="cuda", dtype=torch.float32, generator=g)
        return (x, weight_int8, scale, bias)

    def build(path):
        return common.build(path, make_inputs)

    def reference(x, weight_int8, scale, bias):
        w = weight_int8.double() * scale.double()[:, None]
        return x.double() @ w.T + bias.double()

    return make_inputs, build, reference
