"""paged_kv_gather: gather a paged KV cache into contiguous per-sequence tensors (before a
dense attention kernel or a cache export), fp16:
gather_kv(key_cache, value_cache [num_blocks, block_size, H_kv, D] f16, block_table [B, blocks
per sequence] int32) -> (k, v [B, blocks per sequence * block_size, H_kv, D] f16)."""
import torch
from progbuild import load_program

NUM_BLOCKS, BLOCK_SIZE, H_KV, D = 4608, 16, 8, 128  # caches 151 MB each
B, SEQ = 16, 4096  # outputs 134 MB each
TOL = {"rtol": 0.0, "atol": 0.0}  # a copy: exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    key_cache = torch.randn(NUM_BLOCKS, BLOCK_SIZE, H_KV, D, device="cuda", generator=g).half()
    value_cache = torch.randn(NUM_BLOCKS, BLOCK_SIZE, H_KV, D, device="cuda", generator=g).half()
    per_seq = SEQ // BLOCK_SIZE
    block_table = torch.randperm(NUM_BLOCKS, device="cuda", generator=g)[:B * per_seq]
    return key_cache, value_cache, block_table.view(B, per_seq).to(torch.int32)


def build(path):
    prog = load_program(path)
    return prog.gather_kv


def reference(key_cache, value_cache, block_table):
    idx = block_table.flatten().long()
    b, n = block_table.shape
    shape = (b, n * key_cache.shape[1], key_cache.shape[2], key_cache.shape[3])
    return key_cache.double()[idx].reshape(shape), value_cache.double()[idx].reshape(shape)
