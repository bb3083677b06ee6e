"""Per-row argmax, one program per row, looping over the row in chunks of 2048
with a running max and index per lane (first occurrence kept), then a max and a
min-index reduction; 8 warps, a row base pointer and renamed variables."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = argmax_rows(x); x: f32[16384, 4096]; rtol = 1e-6; atol = 1e-6
@triton.jit
def argmax_rows_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row_ptr = x_ptr + tl.program_id(0) * stride
    lane = tl.arange(0, BLOCK_SIZE)
    run_val = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    run_pos = tl.zeros([BLOCK_SIZE], dtype=tl.int32)
    for base in range(0, n_cols, BLOCK_SIZE):
        pos = base + lane
        v = tl.load(row_ptr + pos, mask=pos < n_cols, other=float("-inf"))
        better = v > run_val
        run_pos = tl.where(better, pos, run_pos)
        run_val = tl.maximum(run_val, v)
    top = tl.max(run_val, axis=0)
    first = tl.min(tl.where(run_val == top, run_pos, n_cols), axis=0)
    tl.store(out_ptr + tl.program_id(0), first.to(tl.int64))


def argmax_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.int64)
    argmax_rows_kernel[(n_rows,)](x, out, n_rows, n_cols, x.stride(0), ROWS=1, BLOCK_SIZE=2048, num_warps=8)
    return out
