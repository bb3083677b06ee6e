"""Adapter of p60-bj-w4a16 (kforecast's own code): each version's `kf_run(x, qweight, scales,
qzeros, g_idx)` (hands-on-kernels' w4a16 GEMMs) on compare.py's main sizes: fp16 x (2048, 4096),
GPTQ int4 weights qweight (4096 / 8, 4096) int32 packed along K, groupsize 128, scales (32, 4096)
fp16, qzeros (32, 4096 / 8) int32 packed along N; output fp16 x @ ((q - (z + 1)) * s)."""
import torch
from progbuild import load_program

M, K, N, GS = 2048, 4096, 4096, 128
G = K // GS
# Dequantised weights of size ~4, outputs ~150; fp16 weights, output and SplitK partial sums.
TOL = {"rtol": 1e-2, "atol": 1.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)

    def ints(r, c):  # compare.py's make_tensor for int32: the whole int32 range
        return torch.randint(-2147483648, 2147483647, (r, c), dtype=torch.int32, device="cuda",
                             generator=g)

    def halves(r, c):  # and for fp16: normal, std 0.5
        return (0.5 * torch.randn(r, c, device="cuda", generator=g)).half()

    x = halves(M, K)
    qweight = ints(K // 8, N)
    qzeros = ints(G, N // 8)
    scales = halves(G, N)
    g_idx = (torch.arange(K, device="cuda", dtype=torch.int32) // GS)
    return (x, qweight, scales, qzeros, g_idx)


def reference(x, qweight, scales, qzeros, g_idx):
    shifts = (torch.arange(8, device="cuda", dtype=torch.int32) * 4)
    q = ((qweight[:, None, :] >> shifts[None, :, None]) & 0xF).reshape(K, N)
    z = ((qzeros[:, :, None] >> shifts[None, None, :]) & 0xF).reshape(G, N)
    gi = g_idx.long()
    w = (q.double() - (z[gi].double() + 1.0)) * scales[gi].double()
    return x.double() @ w


def build(path):
    return load_program(path).kf_run
