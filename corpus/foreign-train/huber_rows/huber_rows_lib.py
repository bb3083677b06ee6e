import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536


def get_num_warps(block_size):
    if block_size >= 32768:
        return 32
    if block_size >= 8192:
        return 16
    if block_size >= 2048:
        return 8
    return 4


@triton.heuristics({"BLOCK_SIZE": lambda args: min(MAX_FUSED_SIZE, triton.next_power_of_2(args["n_cols"]))})
@triton.jit
def _smooth_l1_row_kernel(P, T, L, p_stride, t_stride, n_cols, beta,
                          BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    p = tl.load(P + row * p_stride + cols, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(T + row * t_stride + cols, mask=mask, other=0.0).to(tl.float32)
    d = tl.abs(p - t)
    loss = tl.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)
    loss = tl.where(mask, loss, 0.0)
    tl.store(L + row, tl.sum(loss, axis=0) / n_cols)


class SmoothL1Rows(torch.autograd.Function):
    @staticmethod
    def forward(ctx, pred, target, beta):
        shape = pred.shape
        n_cols = shape[-1]
        pred = pred.contiguous().view(-1, n_cols)
        target = target.contiguous().view(-1, n_cols)
        n_rows = pred.shape[0]
        block = min(MAX_FUSED_SIZE, triton.next_power_of_2(n_cols))
        if n_cols > block:
            raise RuntimeError("rows longer than MAX_FUSED_SIZE are not supported")
        loss = torch.empty(n_rows, dtype=torch.float32, device=pred.device)
        _smooth_l1_row_kernel[(n_rows,)](pred, target, loss, pred.stride(0), target.stride(0),
                                         n_cols, beta, num_warps=get_num_warps(block))
        return loss.view(shape[:-1])


def smooth_l1_rows(pred, target, beta=1.0):
    return SmoothL1Rows.apply(pred, target, beta)
