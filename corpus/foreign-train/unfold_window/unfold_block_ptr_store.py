import torch
import triton
import triton.language as tl


@triton.jit
def unfold_rows_block_store(X, OUT, n_win, win, step, seq_len,
                            stride_row, stride_l,
                            BLOCK_W: tl.constexpr, BLOCK_K: tl.constexpr):
    # the output of one (b, c) row is a [n_win, win] matrix: stored through a block pointer
    row = tl.program_id(0).to(tl.int64)
    wb = tl.program_id(1)
    w = wb * BLOCK_W + tl.arange(0, BLOCK_W)
    k = tl.arange(0, BLOCK_K)
    pos = w[:, None] * step + k[None, :]
    m = (w < n_win)[:, None] & (k < win)[None, :] & (pos < seq_len)
    tile = tl.load(X + row * stride_row + pos * stride_l, mask=m)
    dst = tl.make_block_ptr(base=OUT + row * n_win * win, shape=(n_win, win), strides=(win, 1),
                            offsets=(wb * BLOCK_W, 0), block_shape=(BLOCK_W, BLOCK_K), order=(1, 0))
    tl.store(dst, tile, boundary_check=(0, 1))


def unfold_windows(x, size, step):
    B, C, L = x.shape
    x2 = x.reshape(B * C, L)
    n_win = (L - size) // step + 1
    out = torch.empty(B, C, n_win, size, device=x.device, dtype=x.dtype)
    BLOCK_W = 128
    grid = (B * C, triton.cdiv(n_win, BLOCK_W))
    unfold_rows_block_store[grid](x2, out, n_win, size, step, L, x2.stride(0), x2.stride(1),
                                  BLOCK_W=BLOCK_W, BLOCK_K=triton.next_power_of_2(size), num_warps=8)
    return out
