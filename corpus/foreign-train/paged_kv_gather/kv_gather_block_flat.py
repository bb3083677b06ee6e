import torch
import triton
import triton.language as tl


@triton.jit
def _gather_kv_block_kernel(K_cache, V_cache, BlockTable, K_out, V_out,
                            stride_cb, stride_tb, blocks_per_seq, block_numel,
                            CHUNK: tl.constexpr):
    # one program per cache block, all heads: a block is block_size * H * D contiguous
    # elements in the cache and in the output, so copy it flat
    pid = tl.program_id(0)
    seq = pid // blocks_per_seq
    j = pid % blocks_per_seq
    block = tl.load(BlockTable + seq * stride_tb + j)
    src = block * stride_cb
    dst = pid * block_numel
    for off in range(0, block_numel, CHUNK):
        idx = off + tl.arange(0, CHUNK)
        mask = idx < block_numel
        tl.store(K_out + dst + idx, tl.load(K_cache + src + idx, mask=mask), mask=mask)
        tl.store(V_out + dst + idx, tl.load(V_cache + src + idx, mask=mask), mask=mask)


def gather_kv(key_cache, value_cache, block_table):
    num_seqs, blocks_per_seq = block_table.shape
    _, block_size, num_heads, head_dim = key_cache.shape
    assert key_cache.is_contiguous() and value_cache.is_contiguous()
    seq_len = blocks_per_seq * block_size
    k = torch.empty((num_seqs, seq_len, num_heads, head_dim), dtype=key_cache.dtype, device=key_cache.device)
    v = torch.empty_like(k)
    block_numel = block_size * num_heads * head_dim
    _gather_kv_block_kernel[(num_seqs * blocks_per_seq,)](
        key_cache, value_cache, block_table, k, v, key_cache.stride(0), block_table.stride(0),
        blocks_per_seq, block_numel, CHUNK=4096, num_warps=8)
    return k, v
