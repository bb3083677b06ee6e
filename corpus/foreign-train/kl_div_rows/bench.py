"""kl_div_rows: KL(p || q) per row, averaged over rows ("batchmean"), GPU MODE-style Triton
programs: custom_kernel((log_q, p)) -> 0-dim float32 tensor. p and q are row-wise distributions."""
import torch
from progbuild import load_program

ROWS, COLS = 8192, 8192  # two 256 MB inputs
TOL = {"rtol": 1e-4, "atol": 1e-6}  # sums of 67M terms in different orders (atomics included)


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    log_q = torch.log_softmax(torch.randn(ROWS, COLS, device="cuda", generator=g), dim=1)
    p = torch.softmax(1.5 * torch.randn(ROWS, COLS, device="cuda", generator=g), dim=1)
    return log_q, p


def build(path):
    prog = load_program(path)
    return lambda log_q, p: prog.custom_kernel((log_q, p))


def reference(log_q, p):
    p = p.double()
    return (p * (p.log() - log_q.double())).sum() / p.shape[0]
