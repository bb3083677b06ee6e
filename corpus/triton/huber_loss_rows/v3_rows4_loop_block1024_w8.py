"""Per-row mean Huber loss, 4 rows per program as a 4 x 1024 tile looped over the
columns (a quarter as many programs), tl.sum along axis 1; 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = huber_loss_rows(pred, target); pred: f32[16384, 4096] randn; target: f32[16384, 4096] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def huber_rows_kernel(pred_ptr, target_ptr, out_ptr, n_rows, n_cols, stride, delta, ROWS: tl.constexpr,
                      BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_mask = rows < n_rows
    acc = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = row_mask[:, None] & (cols[None, :] < n_cols)
        offs = rows[:, None] * stride + cols[None, :]
        a = tl.load(pred_ptr + offs, mask=mask, other=0.0)
        b = tl.load(target_ptr + offs, mask=mask, other=0.0)
        d = a - b
        ad = tl.abs(d)
        acc += tl.where(ad < delta, 0.5 * d * d, delta * (ad - 0.5 * delta))
    tl.store(out_ptr + rows, tl.sum(acc, axis=1) / n_cols, mask=row_mask)


def huber_loss_rows(pred: torch.Tensor, target: torch.Tensor, delta: float = 1.0) -> torch.Tensor:
    n_rows, n_cols = pred.shape
    out = torch.empty((n_rows,), device=pred.device, dtype=torch.float32)
    ROWS = 4
    huber_rows_kernel[(triton.cdiv(n_rows, ROWS),)](pred, target, out, n_rows, n_cols, pred.stride(0), delta,
                                                    ROWS=ROWS, BLOCK=1024, num_warps=8)
    return out
