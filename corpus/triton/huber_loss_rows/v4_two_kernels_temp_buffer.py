"""Per-row mean Huber loss in two kernels: an elementwise kernel writes every loss to a
temporary rows x cols buffer, then a row-sum kernel (whole row per program, 8 warps)
re-reads it, so the full matrix crosses memory twice more."""
import torch
import triton
import triton.language as tl


@triton.jit
def huber_elementwise_kernel(pred_ptr, target_ptr, loss_ptr, n, delta, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(pred_ptr + offs, mask=mask, other=0.0)
    b = tl.load(target_ptr + offs, mask=mask, other=0.0)
    d = a - b
    ad = tl.abs(d)
    tl.store(loss_ptr + offs, tl.where(ad < delta, 0.5 * d * d, delta * (ad - 0.5 * delta)), mask=mask)


# kforecast: wrapper = huber_loss_rows(pred, target); pred: f32[16384, 4096] randn; target: f32[16384, 4096] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def huber_rows_kernel(loss_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    loss = tl.load(loss_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(loss, axis=0) / n_cols)


def huber_loss_rows(pred: torch.Tensor, target: torch.Tensor, delta: float = 1.0) -> torch.Tensor:
    n_rows, n_cols = pred.shape
    out = torch.empty((n_rows,), device=pred.device, dtype=torch.float32)
    loss = torch.empty((n_rows, n_cols), device=pred.device, dtype=torch.float32)
    n = pred.numel()
    huber_elementwise_kernel[(triton.cdiv(n, 1024),)](pred, target, loss, n, delta, BLOCK=1024, num_warps=4)
    huber_rows_kernel[(n_rows,)](loss, out, n_cols, loss.stride(0), BLOCK=triton.next_power_of_2(n_cols),
                                 num_warps=8)
    return out
