"""unfold_window: sliding-window copy along the last axis (torch's x.unfold(-1, size, step) made
contiguous), Triton with strides / block pointers: unfold_windows(x f32 [B, C, L], size, step)
-> [B, C, n_windows, size]."""
import torch
from progbuild import load_program

B, C, L = 16, 64, 16390  # 67 MB in; 1023 windows of 32 with step 16 per row: 134 MB out
SIZE, STEP = 32, 16
TOL = {"rtol": 0.0, "atol": 0.0}  # a copy: exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(B, C, L, device="cuda", generator=g),)


def build(path):
    prog = load_program(path)
    return lambda x: prog.unfold_windows(x, SIZE, STEP)


def reference(x):
    return x.double().unfold(-1, SIZE, STEP).contiguous()
