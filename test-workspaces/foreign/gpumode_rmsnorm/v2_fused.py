# GPU MODE-style submission: RMSNorm fused in one launch, the row kept in registers.
import torch
import triton
import triton.language as tl


@triton.jit
def rmsnorm_fwd(X, W, Y, stride, N, eps, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK_N)
    mask = offs < N
    x = tl.load(X + pid * stride + offs, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(W + offs, mask=mask, other=0.0)
    tl.store(Y + pid * stride + offs, x * rstd * w, mask=mask)


def custom_kernel(data):
    x, w = data
    M, N = x.shape
    y = torch.empty_like(x)
    rmsnorm_fwd[(M,)](x, w, y, x.stride(0), N, 1e-6, BLOCK_N=triton.next_power_of_2(N))
    return y
