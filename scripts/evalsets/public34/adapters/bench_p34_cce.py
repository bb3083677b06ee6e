"""Adapter of p34-cce-linear-xent (kforecast's own code): Cut Cross-Entropy's fused linear
cross-entropy, summed loss then dE and dC through torch autograd: e bf16 (8192, 2048) standard
normal, classifier c bf16 (32768, 2048) with std 2 / sqrt(2048) (logit std 2), int64 targets
uniform. Outputs: loss (float32), dE, dC (bf16). Float64 reference: logits, log-sum-exp,
softmax minus one-hot, its products with c and e. Tolerance rtol 0.1, atol 0.06: the kernels
accumulate dE over 256 vocabulary blocks and dC over 64 token blocks in bf16 under locks
(dE ~ 0.05, dC ~ 0.005-0.5, up to ~2 where a class is the target of several tokens); on the H100
(2026-11-27) every version was within rel L2 6e-3 of the float64 reference but 1,200-1,500 of
the 67M dC elements were off by up to ~0.04 (partial sums of ~1 rounded to bf16 then cancelling)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p34common as kf  # noqa: E402

TOL = kf.CCE_TOL
make_inputs = kf.cce_inputs
reference = kf.cce_reference
build = kf.cce_build
