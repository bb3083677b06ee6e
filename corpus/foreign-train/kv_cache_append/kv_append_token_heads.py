import torch
import triton
import triton.language as tl


@triton.jit
def _scatter_token_all_heads(kc_ptr, vc_ptr, kn_ptr, vn_ptr, pos_ptr,
                             n_new, n_heads, head_dim,
                             stride_cb, stride_ch, stride_cs,
                             stride_nb, stride_nh, stride_nt,
                             stride_pb,
                             BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    # one program per new token: every head's row of that token at once
    pid = tl.program_id(0)
    b = (pid // n_new).to(tl.int64)
    t = pid % n_new
    pos = tl.load(pos_ptr + b * stride_pb + t)
    h = tl.arange(0, BLOCK_H)
    d = tl.arange(0, BLOCK_D)
    m = (h < n_heads)[:, None] & (d < head_dim)[None, :]
    src = b * stride_nb + t * stride_nt + h[:, None] * stride_nh + d[None, :]
    dst = b * stride_cb + pos * stride_cs + h[:, None] * stride_ch + d[None, :]
    tl.store(kc_ptr + dst, tl.load(kn_ptr + src, mask=m), mask=m)
    tl.store(vc_ptr + dst, tl.load(vn_ptr + src, mask=m), mask=m)


def kv_cache_append(k_cache, v_cache, k_new, v_new, positions):
    k_new = k_new.contiguous()
    v_new = v_new.contiguous()
    positions = positions.contiguous()
    B, H, T, D = k_new.shape
    _scatter_token_all_heads[(B * T,)](
        k_cache, v_cache, k_new, v_new, positions, T, H, D,
        k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
        k_new.stride(0), k_new.stride(1), k_new.stride(2),
        positions.stride(0),
        BLOCK_H=triton.next_power_of_2(H), BLOCK_D=triton.next_power_of_2(D), num_warps=8)
    return k_cache, v_cache
