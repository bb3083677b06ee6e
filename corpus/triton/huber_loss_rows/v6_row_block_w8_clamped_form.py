"""Per-row mean Huber loss, one program per row with the whole row, 8 warps: v0 with
renamed values and the branch-free form q = min(|d|, delta), loss = q * (|d| - q/2)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = huber_loss_rows(pred, target); pred: f32[16384, 4096] randn; target: f32[16384, 4096] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def huber_rows_kernel(pred_ptr, target_ptr, out_ptr, n_cols, stride, delta, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    valid = offs < n_cols
    base = tl.program_id(0) * stride
    diff = tl.load(pred_ptr + base + offs, mask=valid, other=0.0) - tl.load(target_ptr + base + offs, mask=valid,
                                                                            other=0.0)
    mag = tl.abs(diff)
    q = tl.minimum(mag, delta)
    total = tl.sum(q * (mag - 0.5 * q), axis=0)
    tl.store(out_ptr + tl.program_id(0), total / n_cols)


def huber_loss_rows(pred: torch.Tensor, target: torch.Tensor, delta: float = 1.0) -> torch.Tensor:
    n_rows, n_cols = pred.shape
    out = torch.empty((n_rows,), device=pred.device, dtype=torch.float32)
    BLOCK = triton.next_power_of_2(n_cols)
    huber_rows_kernel[(n_rows,)](pred, target, out, n_cols, pred.stride(0), delta, BLOCK=BLOCK, num_warps=8)
    return out
