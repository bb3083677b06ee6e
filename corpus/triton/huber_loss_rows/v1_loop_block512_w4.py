"""Per-row mean Huber loss, one program per row looping over the row in chunks of 512,
accumulating the losses in a 512-wide vector, one tl.sum at the end; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = huber_loss_rows(pred, target); pred: f32[16384, 4096] randn; target: f32[16384, 4096] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def huber_rows_kernel(pred_ptr, target_ptr, out_ptr, n_cols, stride, delta, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        a = tl.load(pred_ptr + row * stride + cols, mask=mask, other=0.0)
        b = tl.load(target_ptr + row * stride + cols, mask=mask, other=0.0)
        d = a - b
        ad = tl.abs(d)
        acc += tl.where(ad < delta, 0.5 * d * d, delta * (ad - 0.5 * delta))
    tl.store(out_ptr + row, tl.sum(acc, axis=0) / n_cols)


def huber_loss_rows(pred: torch.Tensor, target: torch.Tensor, delta: float = 1.0) -> torch.Tensor:
    n_rows, n_cols = pred.shape
    out = torch.empty((n_rows,), device=pred.device, dtype=torch.float32)
    huber_rows_kernel[(n_rows,)](pred, target, out, n_cols, pred.stride(0), delta, BLOCK=512, num_warps=4)
    return out
