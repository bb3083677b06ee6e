"""Adapter of p34-as-scan and p34-as-warpscan (kforecast's own code): accelerated-scan's
first-order recurrence x_t = a_t x_{t-1} + b_t on float32 (8, 1536, 4096), gates 0.999 + 0.001 *
U(0, 1) rounded through fp16 and tokens U(0, 1) (tests/bench.py's init), forward then backward
through torch autograd with a standard normal output gradient. Outputs: states, d_gates,
d_tokens. Float64 reference: the closed form through the running product of the gates,
differentiated by torch autograd. atol 0.5: d_gates reaches 1e5 (states ~2000 times token
gradients ~60) and a float32 scan of 4096 steps is off by ~0.03 there."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p34common as kf  # noqa: E402

TOL = kf.SCAN_TOL
make_inputs, reference, build = kf.scan_adapter(complex_=False)
