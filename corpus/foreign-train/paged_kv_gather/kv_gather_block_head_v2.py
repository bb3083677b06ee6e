import torch
import triton
import triton.language as tl


@triton.jit
def gather_paged_kv_kernel(
    key_cache_ptr, value_cache_ptr, block_table_ptr, key_out_ptr, value_out_ptr,
    cache_block_stride, cache_slot_stride, cache_head_stride, table_row_stride,
    out_seq_stride, out_tok_stride, out_head_stride,
    max_blocks_per_seq,
    PAGE_SIZE: tl.constexpr, HEAD_SIZE: tl.constexpr,
):
    seq_block = tl.program_id(0)
    kv_head = tl.program_id(1)
    seq_idx = seq_block // max_blocks_per_seq
    logical_block = seq_block - seq_idx * max_blocks_per_seq
    physical_block = tl.load(block_table_ptr + seq_idx * table_row_stride + logical_block)
    slots = tl.arange(0, PAGE_SIZE)
    dims = tl.arange(0, HEAD_SIZE)
    cache_offs = (physical_block * cache_block_stride + kv_head * cache_head_stride
                  + slots[:, None] * cache_slot_stride + dims[None, :])
    tokens = logical_block * PAGE_SIZE + slots
    out_offs = (seq_idx * out_seq_stride + kv_head * out_head_stride
                + tokens[:, None] * out_tok_stride + dims[None, :])
    keys = tl.load(key_cache_ptr + cache_offs)
    values = tl.load(value_cache_ptr + cache_offs)
    tl.store(key_out_ptr + out_offs, keys)
    tl.store(value_out_ptr + out_offs, values)


def gather_kv(key_cache, value_cache, block_table):
    """Contiguous K and V for every sequence of `block_table` (full blocks only)."""
    num_seqs, max_blocks_per_seq = block_table.shape
    _, page_size, num_kv_heads, head_size = key_cache.shape
    assert value_cache.shape == key_cache.shape and value_cache.stride() == key_cache.stride()
    assert page_size & (page_size - 1) == 0 and head_size & (head_size - 1) == 0
    out_shape = (num_seqs, max_blocks_per_seq * page_size, num_kv_heads, head_size)
    key_out = key_cache.new_empty(out_shape)
    value_out = value_cache.new_empty(out_shape)
    gather_paged_kv_kernel[(num_seqs * max_blocks_per_seq, num_kv_heads)](
        key_cache, value_cache, block_table, key_out, value_out,
        key_cache.stride(0), key_cache.stride(1), key_cache.stride(2), block_table.stride(0),
        key_out.stride(0), key_out.stride(1), key_out.stride(2),
        max_blocks_per_seq,
        PAGE_SIZE=page_size, HEAD_SIZE=head_size, num_warps=4,
    )
    return key_out, value_out
