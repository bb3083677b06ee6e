"""Adapter of p34-as-complex-scan (kforecast's own code): accelerated-scan's complex recurrence
x_t = a_t x_{t-1} + b_t on complex64 (8, 768, 4096), gates of modulus 0.999 + 0.001 * U(0, 1) and
phase U(-0.01, 0.01), inputs and output gradient complex standard normal, forward then backward
through torch autograd. Outputs (compared as real views): states, d_gates, d_inputs. Float64
reference: the closed form in complex128, differentiated by torch autograd."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p34common as kf  # noqa: E402

TOL = kf.SCAN_TOL
make_inputs, reference, build = kf.scan_adapter(complex_=True)
