"""Adapter of p33-fastllm-layernorm (kforecast's own code): Fast-LLM's Triton normalisation,
forward then backward in training mode, as a layer norm (weight and bias), on x float32
(8192, 4096), weight in [0.5, 1.5], bias and grad_output standard normal, eps 1e-5. The weight
and bias get a `grad_buffer` (as Fast-LLM's parameters have) and requires_grad; the stand-in
param_get_and_unset_is_zero answers True, so the gradients are written, not accumulated.
Outputs: y, grad_input, grad_weight, grad_bias. Float64 reference: the layer norm and its
gradients by torch autograd in float64."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p33common as kf  # noqa: E402

TOL = kf.NORM_TOL
make_inputs, reference, build = kf.norm_adapter(has_bias=True)
