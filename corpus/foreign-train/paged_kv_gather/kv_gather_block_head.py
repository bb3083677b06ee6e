import torch
import triton
import triton.language as tl


@triton.jit
def _gather_kv_kernel(K_cache, V_cache, BlockTable, K_out, V_out,
                      stride_cb, stride_cs, stride_ch, stride_tb,
                      stride_ob, stride_os, stride_oh,
                      blocks_per_seq,
                      BLOCK_SIZE: tl.constexpr, HEAD_DIM: tl.constexpr):
    # one program per (cache block, head): a [BLOCK_SIZE, HEAD_DIM] tile, vector loads along D
    pid = tl.program_id(0)
    head = tl.program_id(1)
    seq = pid // blocks_per_seq
    j = pid % blocks_per_seq
    block = tl.load(BlockTable + seq * stride_tb + j)
    s = tl.arange(0, BLOCK_SIZE)
    d = tl.arange(0, HEAD_DIM)
    src = block * stride_cb + head * stride_ch + s[:, None] * stride_cs + d[None, :]
    dst = seq * stride_ob + head * stride_oh + (j * BLOCK_SIZE + s)[:, None] * stride_os + d[None, :]
    tl.store(K_out + dst, tl.load(K_cache + src))
    tl.store(V_out + dst, tl.load(V_cache + src))


def gather_kv(key_cache, value_cache, block_table):
    num_seqs, blocks_per_seq = block_table.shape
    _, block_size, num_heads, head_dim = key_cache.shape
    seq_len = blocks_per_seq * block_size
    k = torch.empty((num_seqs, seq_len, num_heads, head_dim), dtype=key_cache.dtype, device=key_cache.device)
    v = torch.empty_like(k)
    grid = (num_seqs * blocks_per_seq, num_heads)
    _gather_kv_kernel[grid](key_cache, value_cache, block_table, k, v,
                            key_cache.stride(0), key_cache.stride(1), key_cache.stride(2),
                            block_table.stride(0), k.stride(0), k.stride(1), k.stride(2),
                            blocks_per_seq, BLOCK_SIZE=block_size, HEAD_DIM=head_dim, num_warps=4)
    return k, v
