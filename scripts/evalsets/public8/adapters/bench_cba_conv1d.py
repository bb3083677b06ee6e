"""Adapter of p8-cba-conv1d (kforecast's own code): CoffeeBeforeArch's int 1-D
convolution, mask length 7, n = 2^24 (main() uses 2^20), inputs rand() % 100 and a mask
of rand() % 10 as main() draws them. The input is main()'s zero-padded array (n + 6);
the naive and constant-memory versions get its unpadded middle, as their main() does."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p8common as c  # noqa: E402

N, M = 1 << 24, 7
R = M // 2
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = c.gen(seed)
    padded = torch.zeros(N + 2 * R, device="cuda", dtype=torch.int32)
    padded[R:R + N] = torch.randint(0, 100, (N,), device="cuda", generator=g, dtype=torch.int32)
    mask = torch.randint(0, 10, (M,), device="cuda", generator=g, dtype=torch.int32)
    return (padded, mask)


def reference(padded, mask):
    p, m = padded.double(), mask.double()
    return sum(p[j:j + N] * m[j] for j in range(M))


def build(path):
    run = c.entry(path, 3, 1)
    padded_input = os.path.basename(path) in ("conv_1d_cache.cu", "conv_1d_tiled.cu")

    def fn(padded, mask):
        out = torch.empty(N, device="cuda", dtype=torch.int32)
        arr = padded if padded_input else padded[R:R + N]
        c.check(run(c.ptr(arr), c.ptr(mask), c.ptr(out), N), path)
        return out

    return fn
