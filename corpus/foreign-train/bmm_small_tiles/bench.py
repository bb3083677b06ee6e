"""bmm_small_tiles: templated .cu programs; extern "C" int bmm_batched(A, B, C, batch, M, N, K)
computes C[b] = A[b] @ B[b] for row-major float32 A [batch, M, K], B [batch, K, N]."""
import torch
from progbuild import nvcc_library, ptr

BATCH, M, N, K = 4096, 64, 64, 64
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(BATCH, M, K, device="cuda", generator=g)
    b = torch.randn(BATCH, K, N, device="cuda", generator=g)
    return (a, b)


def build(path):
    lib = nvcc_library(path)

    def fn(a, b):
        batch, m, k = a.shape
        n = b.shape[2]
        c = torch.empty(batch, m, n, device=a.device, dtype=torch.float32)
        rc = lib.bmm_batched(ptr(a), ptr(b), ptr(c), batch, m, n, k)
        if rc != 0:
            raise RuntimeError(f"bmm_batched returned CUDA error {rc}")
        return c

    return fn


def reference(a, b):
    return torch.bmm(a.double(), b.double())
