"""Sum-pooled embedding bags: one program per bag loops over its 32 indices, loading one index and
then one 128-float table row per iteration into a vector accumulator (dependent index -> row
loads, one row in flight); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = embedding_bag(weight, idx); weight: f32[262144, 128] randn; idx: i32[16384, 32] randint(0, 262144); rtol = 1e-3; atol = 1e-3
@triton.jit
def embedding_bag_kernel(w_ptr, idx_ptr, out_ptr, n_bags, bag_size, dim, stride_w, stride_idx, stride_out,
                         BLOCK_B: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_D: tl.constexpr):
    # BLOCK_J is unused: the bag is walked one index (one table row) at a time.
    bag = tl.program_id(0)
    cols = tl.arange(0, BLOCK_D)
    c_mask = cols < dim
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for j in range(0, bag_size):
        r = tl.load(idx_ptr + bag * stride_idx + j)
        acc += tl.load(w_ptr + r * stride_w + cols, mask=c_mask, other=0.0)
    tl.store(out_ptr + bag * stride_out + cols, acc, mask=c_mask)


def embedding_bag(weight: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_bags, bag_size = idx.shape
    dim = weight.shape[1]
    out = torch.empty((n_bags, dim), device=weight.device, dtype=torch.float32)
    BLOCK_B, BLOCK_J, BLOCK_D = 1, triton.next_power_of_2(bag_size), triton.next_power_of_2(dim)
    grid = (triton.cdiv(n_bags, BLOCK_B),)
    embedding_bag_kernel[grid](weight, idx, out, n_bags, bag_size, dim, weight.stride(0), idx.stride(0), out.stride(0),
                               BLOCK_B=BLOCK_B, BLOCK_J=BLOCK_J, BLOCK_D=BLOCK_D, num_warps=4)
    return out
