import torch
import triton
import triton.language as tl


@triton.jit
def layerscale_residual_tile_kernel(X, Y, G, KEEP, OUT, n_rows, n_cols, stride_row, inv_q,
                                    ROWS_PER_PROG: tl.constexpr, BLOCK_C: tl.constexpr):
    row0 = tl.program_id(0) * ROWS_PER_PROG
    cols = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = cols < n_cols
    # the LayerScale vector is read once per column tile, kept in registers for all rows
    g = tl.load(G + cols, mask=cmask, other=0.0).to(tl.float32) * inv_q
    for r in range(ROWS_PER_PROG):
        row = row0 + r
        m = cmask & (row < n_rows)
        base = row.to(tl.int64) * stride_row
        x = tl.load(X + base + cols, mask=m, other=0.0).to(tl.float32)
        y = tl.load(Y + base + cols, mask=m, other=0.0).to(tl.float32)
        k = tl.load(KEEP + base + cols, mask=m)
        out = x + tl.where(k, g * y, 0.0)
        tl.store(OUT + base + cols, out.to(OUT.dtype.element_ty), mask=m)


def residual_dropout_add(x, y, gamma, keep, p):
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    ROWS_PER_PROG, BLOCK_C = 8, 1024
    grid = (triton.cdiv(n_rows, ROWS_PER_PROG), triton.cdiv(n_cols, BLOCK_C))
    layerscale_residual_tile_kernel[grid](x, y, gamma, keep, out, n_rows, n_cols, x.stride(0),
                                          1.0 / (1.0 - p), ROWS_PER_PROG=ROWS_PER_PROG,
                                          BLOCK_C=BLOCK_C, num_warps=4)
    return out
