import torch
import triton
import triton.language as tl


@triton.jit
def alibi_add_kernel(S_ptr, O_ptr, slopes_ptr, n_heads, seq_len,
                     stride_sb, stride_sh, stride_sm, stride_sn,
                     stride_ob, stride_oh, stride_om, stride_on,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_bh = tl.program_id(2)
    b = (pid_bh // n_heads).to(tl.int64)
    h = pid_bh % n_heads
    s_blk = tl.make_block_ptr(base=S_ptr + b * stride_sb + h * stride_sh,
                              shape=(seq_len, seq_len), strides=(stride_sm, stride_sn),
                              offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                              block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    o_blk = tl.make_block_ptr(base=O_ptr + b * stride_ob + h * stride_oh,
                              shape=(seq_len, seq_len), strides=(stride_om, stride_on),
                              offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                              block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    x = tl.load(s_blk, boundary_check=(0, 1))
    i = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    j = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    slope = tl.load(slopes_ptr + h)
    rel = (j[None, :] - i[:, None]).to(tl.float32)
    tl.store(o_blk, x + slope * rel, boundary_check=(0, 1))


def alibi_add(scores, slopes):
    B, H, M, N = scores.shape
    out = torch.empty_like(scores)
    BLOCK_M, BLOCK_N = 64, 64
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N), B * H)
    alibi_add_kernel[grid](scores, out, slopes, H, N,
                           scores.stride(0), scores.stride(1), scores.stride(2), scores.stride(3),
                           out.stride(0), out.stride(1), out.stride(2), out.stride(3),
                           BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
