import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def lse_two_pass(X, OUT, stride, n_cols, BLOCK: tl.constexpr):
    # pass 1: the row maximum; pass 2: sum of exp(x - max) (the row is read twice)
    r = tl.program_id(0).to(tl.int64)
    mx = tl.full([BLOCK], -float("inf"), dtype=tl.float32)
    for c in range(0, n_cols, BLOCK):
        k = c + tl.arange(0, BLOCK)
        mx = tl.maximum(mx, tl.load(X + r * stride + k, mask=k < n_cols, other=-float("inf")))
    row_max = tl.max(mx, axis=0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c in range(0, n_cols, BLOCK):
        k = c + tl.arange(0, BLOCK)
        v = tl.load(X + r * stride + k, mask=k < n_cols, other=-float("inf"))
        acc += tl.exp(v - row_max)
    tl.store(OUT + r, row_max + tl.log(tl.sum(acc, axis=0)))


class LogSumExpTwoPass(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        n = x.shape[-1]
        x_ = x.contiguous().view(-1, n)
        out = torch.empty(x_.shape[0], device=x.device, dtype=torch.float32)
        lse_two_pass[(x_.shape[0],)](x_, out, x_.stride(0), n, BLOCK=BLOCK, num_warps=4)
        return out.view(x.shape[:-1])


def logsumexp(x):
    return LogSumExpTwoPass.apply(x)
