"""Sum-pooled embedding bags: one program per bag gathers its rows 8 at a time ([8, 128] tiles,
4 iterations) into a 2-D accumulator reduced once at the end; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = embedding_bag(weight, idx); weight: f32[262144, 128] randn; idx: i32[16384, 32] randint(0, 262144); rtol = 1e-3; atol = 1e-3
@triton.jit
def embedding_bag_kernel(w_ptr, idx_ptr, out_ptr, n_bags, bag_size, dim, stride_w, stride_idx, stride_out,
                         BLOCK_B: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_D: tl.constexpr):
    # BLOCK_J is the chunk of indices gathered per iteration ([BLOCK_J, BLOCK_D] tiles).
    bag = tl.program_id(0)
    cols = tl.arange(0, BLOCK_D)
    c_mask = cols < dim
    acc = tl.zeros([BLOCK_J, BLOCK_D], dtype=tl.float32)
    for j0 in range(0, bag_size, BLOCK_J):
        js = j0 + tl.arange(0, BLOCK_J)
        j_mask = js < bag_size
        ids = tl.load(idx_ptr + bag * stride_idx + js, mask=j_mask, other=0)
        acc += tl.load(w_ptr + ids[:, None] * stride_w + cols[None, :], mask=j_mask[:, None] & c_mask[None, :], other=0.0)
    tl.store(out_ptr + bag * stride_out + cols, tl.sum(acc, axis=0), mask=c_mask)


def embedding_bag(weight: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_bags, bag_size = idx.shape
    dim = weight.shape[1]
    out = torch.empty((n_bags, dim), device=weight.device, dtype=torch.float32)
    BLOCK_B, BLOCK_J, BLOCK_D = 1, 8, triton.next_power_of_2(dim)
    grid = (triton.cdiv(n_bags, BLOCK_B),)
    embedding_bag_kernel[grid](weight, idx, out, n_bags, bag_size, dim, weight.stride(0), idx.stride(0), out.stride(0),
                               BLOCK_B=BLOCK_B, BLOCK_J=BLOCK_J, BLOCK_D=BLOCK_D, num_warps=4)
    return out
