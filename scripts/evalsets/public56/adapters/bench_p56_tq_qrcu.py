"""Adapter of p56-tq-qrcu-n352 (kforecast's own code): the author's CUDA ladder for GPU MODE qr_v2,
each .cu built with nvcc -O3 -std=c++17 --use_fast_math -lcublas (the author's Makefile flags) and
run through its KFORECAST `kf_run(A, H, tau, batch, n)` (qr_custom_kernel_cuda on the default
stream) into fresh H and tau; batch 40 x 352 x 352, cond 1, seed 123456 + draw (the problem's
third benchmark shape, its generate_input); float64 reference torch.geqrf. See _p56qr.py."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import _p56qr as kf  # noqa: E402

TOL = kf.TOL
reference = kf.reference
make_inputs, build = kf.qrcu_adapter(HERE, batch=40, n=352, cond=1, seed0=123456)
