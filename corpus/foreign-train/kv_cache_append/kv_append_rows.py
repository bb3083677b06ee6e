import torch
import triton
import triton.language as tl


@triton.jit
def kv_append_row_kernel(K_CACHE, V_CACHE, K_NEW, V_NEW, POS,
                         n_heads, n_new, head_dim,
                         sc_b, sc_h, sc_s, sc_d,
                         sn_b, sn_h, sn_t, sn_d,
                         sp_b, sp_t,
                         BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    t = pid % n_new
    bh = pid // n_new
    h = bh % n_heads
    b = (bh // n_heads).to(tl.int64)
    pos = tl.load(POS + b * sp_b + t * sp_t)
    d = tl.arange(0, BLOCK_D)
    dm = d < head_dim
    src = b * sn_b + h * sn_h + t * sn_t + d * sn_d
    dst = b * sc_b + h * sc_h + pos * sc_s + d * sc_d
    tl.store(K_CACHE + dst, tl.load(K_NEW + src, mask=dm), mask=dm)
    tl.store(V_CACHE + dst, tl.load(V_NEW + src, mask=dm), mask=dm)


def kv_cache_append(k_cache, v_cache, k_new, v_new, positions):
    B, H, T, D = k_new.shape
    assert k_cache.stride() == v_cache.stride() and k_new.stride() == v_new.stride()
    grid = (B * H * T,)
    kv_append_row_kernel[grid](
        k_cache, v_cache, k_new, v_new, positions,
        H, T, D,
        k_cache.stride(0), k_cache.stride(1), k_cache.stride(2), k_cache.stride(3),
        k_new.stride(0), k_new.stride(1), k_new.stride(2), k_new.stride(3),
        positions.stride(0), positions.stride(1),
        BLOCK_D=triton.next_power_of_2(D), num_warps=2,
    )
    return k_cache, v_cache
