"""Adapter of p33-fastllm-rmsnorm (kforecast's own code): Fast-LLM's Triton normalisation,
forward then backward in training mode, called as an RMS norm (bias None: no mean subtracted),
x float32 (8192, 4096), weight in [0.5, 1.5] with a `grad_buffer`, eps 1e-5. Outputs: y,
grad_input, grad_weight. Float64 reference: the RMS norm and its gradients by torch autograd."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p33common as kf  # noqa: E402

TOL = kf.NORM_TOL
make_inputs, reference, build = kf.norm_adapter(has_bias=False)
