import torch
import triton
import triton.language as tl


@triton.jit
def kv_write_piece(kc, vc, kn, vn, pos_ptr, n_heads, n_new, head_dim,
                   cb, ch, cs, nb, nh, nt, pb, PIECE: tl.constexpr):
    # grid (row, piece): 16 elements of one row per program
    row = tl.program_id(0)
    piece = tl.program_id(1)
    t = row % n_new
    h = (row // n_new) % n_heads
    b = row // (n_new * n_heads)
    p = tl.load(pos_ptr + b * pb + t)
    d = piece * PIECE + tl.arange(0, PIECE)
    ok = d < head_dim
    s_off = b.to(tl.int64) * nb + h * nh + t * nt + d
    d_off = b.to(tl.int64) * cb + h * ch + p * cs + d
    tl.store(kc + d_off, tl.load(kn + s_off, mask=ok), mask=ok)
    tl.store(vc + d_off, tl.load(vn + s_off, mask=ok), mask=ok)


def kv_cache_append(k_cache, v_cache, k_new, v_new, positions):
    B, H, T, D = k_new.shape
    PIECE = 16
    grid = (B * H * T, triton.cdiv(D, PIECE))
    kv_write_piece[grid](k_cache, v_cache, k_new.contiguous(), v_new.contiguous(), positions.contiguous(),
                         H, T, D,
                         k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
                         H * T * D, T * D, D, T,
                         PIECE=PIECE, num_warps=1)
    return k_cache, v_cache
