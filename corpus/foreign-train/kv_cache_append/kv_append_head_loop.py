import torch
import triton
import triton.language as tl


@triton.jit
def kv_append_per_head(k_cache_ptr, v_cache_ptr, k_ptr, v_ptr, pos_ptr,
                       n_heads, n_new, head_dim,
                       stride_cache_b, stride_cache_h, stride_cache_s,
                       stride_new_b, stride_new_h, stride_new_t,
                       stride_pos_b,
                       ROWS: tl.constexpr, BLOCK_D: tl.constexpr):
    # one program per (batch, head) walks all new tokens ROWS at a time
    pid = tl.program_id(0)
    b = (pid // n_heads).to(tl.int64)
    h = pid % n_heads
    d = tl.arange(0, BLOCK_D)
    dmask = d < head_dim
    new_base = b * stride_new_b + h * stride_new_h
    cache_base = b * stride_cache_b + h * stride_cache_h
    for t0 in range(0, n_new, ROWS):
        t = t0 + tl.arange(0, ROWS)
        tmask = t < n_new
        m = tmask[:, None] & dmask[None, :]
        pos = tl.load(pos_ptr + b * stride_pos_b + t, mask=tmask, other=0)
        src = new_base + t[:, None] * stride_new_t + d[None, :]
        dst = cache_base + pos[:, None] * stride_cache_s + d[None, :]
        tl.store(k_cache_ptr + dst, tl.load(k_ptr + src, mask=m), mask=m)
        tl.store(v_cache_ptr + dst, tl.load(v_ptr + src, mask=m), mask=m)


def kv_cache_append(k_cache, v_cache, k_new, v_new, positions):
    B, H, T, D = k_new.shape
    k_new, v_new, positions = k_new.contiguous(), v_new.contiguous(), positions.contiguous()
    kv_append_per_head[(B * H,)](k_cache, v_cache, k_new, v_new, positions, H, T, D,
                                 k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
                                 k_new.stride(0), k_new.stride(1), k_new.stride(2),
                                 positions.stride(0),
                                 ROWS=16, BLOCK_D=triton.next_power_of_2(D), num_warps=4)
    return k_cache, v_cache
