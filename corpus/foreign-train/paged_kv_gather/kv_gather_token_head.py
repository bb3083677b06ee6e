import torch
import triton
import triton.language as tl


@triton.jit
def _gather_kv_kernel(K_cache, V_cache, BlockTable, K_out, V_out,
                      stride_cb, stride_cs, stride_ch, stride_tb,
                      stride_ob, stride_os, stride_oh,
                      seq_len, block_size,
                      HEAD_DIM: tl.constexpr):
    # one program per (token, head): one head_dim vector
    tok = tl.program_id(0)
    head = tl.program_id(1)
    seq = tok // seq_len
    pos = tok % seq_len
    block = tl.load(BlockTable + seq * stride_tb + pos // block_size)
    d = tl.arange(0, HEAD_DIM)
    src = block * stride_cb + (pos % block_size) * stride_cs + head * stride_ch + d
    dst = seq * stride_ob + pos * stride_os + head * stride_oh + d
    tl.store(K_out + dst, tl.load(K_cache + src))
    tl.store(V_out + dst, tl.load(V_cache + src))


def gather_kv(key_cache, value_cache, block_table):
    num_seqs, blocks_per_seq = block_table.shape
    _, block_size, num_heads, head_dim = key_cache.shape
    seq_len = blocks_per_seq * block_size
    k = torch.empty((num_seqs, seq_len, num_heads, head_dim), dtype=key_cache.dtype, device=key_cache.device)
    v = torch.empty_like(k)
    grid = (num_seqs * seq_len, num_heads)
    _gather_kv_kernel[grid](key_cache, value_cache, block_table, k, v,
                            key_cache.stride(0), key_cache.stride(1), key_cache.stride(2),
                            block_table.stride(0), k.stride(0), k.stride(1), k.stride(2),
                            seq_len, block_size, HEAD_DIM=head_dim, num_warps=1)
    return k, v
