import torch
import triton
import triton.language as tl


@triton.jit
def alibi_small_tile(s_ptr, o_ptr, slope_ptr, n_heads, n,
                     s_b, s_h, s_m, s_n,
                     TM: tl.constexpr, TN: tl.constexpr):
    # 8 x 16 tiles, one warp each
    tile_m = tl.program_id(0)
    tile_n = tl.program_id(1)
    bh = tl.program_id(2)
    h = bh % n_heads
    base = (bh // n_heads).to(tl.int64) * s_b + h * s_h
    src = tl.make_block_ptr(s_ptr + base, (n, n), (s_m, s_n), (tile_m * TM, tile_n * TN), (TM, TN), (1, 0))
    dst = tl.make_block_ptr(o_ptr + base, (n, n), (s_m, s_n), (tile_m * TM, tile_n * TN), (TM, TN), (1, 0))
    ii = tile_m * TM + tl.arange(0, TM)
    jj = tile_n * TN + tl.arange(0, TN)
    v = tl.load(src, boundary_check=(0, 1))
    v = v + tl.load(slope_ptr + h) * (jj[None, :] - ii[:, None]).to(tl.float32)
    tl.store(dst, v, boundary_check=(0, 1))


def alibi_add(scores, slopes):
    scores = scores.contiguous()
    B, H, S, _ = scores.shape
    out = torch.empty_like(scores)
    TM, TN = 8, 16
    grid = (triton.cdiv(S, TM), triton.cdiv(S, TN), B * H)
    alibi_small_tile[grid](scores, out, slopes, H, S, *scores.stride(), TM=TM, TN=TN, num_warps=1)
    return out
