import torch
import triton
import triton.language as tl


@triton.jit
def _gather_kv_kernel(K_cache, V_cache, BlockTable, K_out, V_out,
                      stride_cb, stride_cs, stride_ch, stride_tb,
                      stride_ob, stride_os, stride_oh,
                      blocks_per_seq,
                      BLOCK_SIZE: tl.constexpr, HEAD_DIM: tl.constexpr):
    # one program per (sequence, head) walking the sequence's block table; 64-bit offsets
    # so caches past 2^31 elements work
    seq = tl.program_id(0).to(tl.int64)
    head = tl.program_id(1).to(tl.int64)
    s = tl.arange(0, BLOCK_SIZE)
    d = tl.arange(0, HEAD_DIM)
    tile = s[:, None] * stride_cs + d[None, :]
    out_tile = s[:, None] * stride_os + d[None, :]
    for j in range(0, blocks_per_seq):
        block = tl.load(BlockTable + seq * stride_tb + j).to(tl.int64)
        src = block * stride_cb + head * stride_ch
        dst = seq * stride_ob + head * stride_oh + tl.cast(j, tl.int64) * BLOCK_SIZE * stride_os
        tl.store(K_out + dst + out_tile, tl.load(K_cache + src + tile))
        tl.store(V_out + dst + out_tile, tl.load(V_cache + src + tile))


def gather_kv(key_cache, value_cache, block_table):
    num_seqs, blocks_per_seq = block_table.shape
    _, block_size, num_heads, head_dim = key_cache.shape
    seq_len = blocks_per_seq * block_size
    k = torch.empty((num_seqs, seq_len, num_heads, head_dim), dtype=key_cache.dtype, device=key_cache.device)
    v = torch.empty_like(k)
    _gather_kv_kernel[(num_seqs, num_heads)](
        key_cache, value_cache, block_table, k, v,
        key_cache.stride(0), key_cache.stride(1), key_cache.stride(2),
        block_table.stride(0), k.stride(0), k.stride(1), k.stride(2),
        blocks_per_seq, BLOCK_SIZE=block_size, HEAD_DIM=head_dim, num_warps=4)
    return k, v
