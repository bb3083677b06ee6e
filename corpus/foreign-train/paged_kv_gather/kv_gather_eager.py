import torch


def gather_kv(key_cache, value_cache, block_table):
    num_seqs, blocks_per_seq = block_table.shape
    _, block_size, num_heads, head_dim = key_cache.shape
    idx = block_table.flatten().long()
    k = key_cache.index_select(0, idx).view(num_seqs, blocks_per_seq * block_size, num_heads, head_dim)
    v = value_cache.index_select(0, idx).view(num_seqs, blocks_per_seq * block_size, num_heads, head_dim)
    return k, v
