"""Rows of new keys (then values) are read as [BLOCK_T, D] tiles through block pointers
and scattered into the cache by their position index; one launch per cache."""
import torch
import triton
import triton.language as tl


@triton.jit
def cache_scatter_tile(cache_ptr, new_ptr, pos_ptr,
                       n_heads, n_new, head_dim,
                       sc_b, sc_h, sc_s, sc_d,
                       sn_b, sn_h, sn_t, sn_d,
                       sp_b, sp_t,
                       BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    pid_t = tl.program_id(0)
    pid_bh = tl.program_id(1)
    b = (pid_bh // n_heads).to(tl.int64)
    h = (pid_bh % n_heads).to(tl.int64)
    src = tl.make_block_ptr(base=new_ptr + b * sn_b + h * sn_h,
                            shape=(n_new, head_dim), strides=(sn_t, sn_d),
                            offsets=(pid_t * BLOCK_T, 0), block_shape=(BLOCK_T, BLOCK_D),
                            order=(1, 0))
    rows = tl.load(src, boundary_check=(0, 1))
    t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    d = tl.arange(0, BLOCK_D)
    pos = tl.load(pos_ptr + b * sp_b + t * sp_t, mask=t < n_new, other=0)
    dst = cache_ptr + b * sc_b + h * sc_h + pos[:, None] * sc_s + d[None, :] * sc_d
    tl.store(dst, rows, mask=(t < n_new)[:, None] & (d < head_dim)[None, :])


def _launch(cache, new, positions, BLOCK_T=32):
    B, H, T, D = new.shape
    grid = (triton.cdiv(T, BLOCK_T), B * H)
    cache_scatter_tile[grid](cache, new, positions, H, T, D,
                             cache.stride(0), cache.stride(1), cache.stride(2), cache.stride(3),
                             new.stride(0), new.stride(1), new.stride(2), new.stride(3),
                             positions.stride(0), positions.stride(1),
                             BLOCK_T=BLOCK_T, BLOCK_D=triton.next_power_of_2(D), num_warps=4)


def kv_cache_append(k_cache, v_cache, k_new, v_new, positions):
    _launch(k_cache, k_new, positions)
    _launch(v_cache, v_new, positions)
    return k_cache, v_cache
