"""An elementwise Triton kernel writes the whole loss matrix; torch takes the row means."""
import torch
import triton
import triton.language as tl


@triton.jit
def smooth_l1_elementwise(p_ptr, t_ptr, l_ptr, n_elements, beta, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    d = tl.abs(tl.load(p_ptr + offs, mask=mask) - tl.load(t_ptr + offs, mask=mask))
    tl.store(l_ptr + offs, tl.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), mask=mask)


class SmoothL1RowsFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, pred, target, beta):
        pred = pred.contiguous()
        target = target.contiguous()
        loss = torch.empty_like(pred)
        n = pred.numel()
        BLOCK_SIZE = 1024
        smooth_l1_elementwise[(triton.cdiv(n, BLOCK_SIZE),)](pred, target, loss, n, beta,
                                                              BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
        return loss.mean(dim=-1)


def smooth_l1_rows(pred, target, beta=1.0):
    return SmoothL1RowsFn.apply(pred, target, beta)
