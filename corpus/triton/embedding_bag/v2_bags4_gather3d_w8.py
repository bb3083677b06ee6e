"""Sum-pooled embedding bags: four bags per program, a [4, 32] index tile and a [4, 32, 128] gather
of table rows reduced over the bag axis; 4096 programs, 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = embedding_bag(weight, idx); weight: f32[262144, 128] randn; idx: i32[16384, 32] randint(0, 262144); rtol = 1e-3; atol = 1e-3
@triton.jit
def embedding_bag_kernel(w_ptr, idx_ptr, out_ptr, n_bags, bag_size, dim, stride_w, stride_idx, stride_out,
                         BLOCK_B: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_D: tl.constexpr):
    bags = tl.program_id(0) * BLOCK_B + tl.arange(0, BLOCK_B)
    js = tl.arange(0, BLOCK_J)
    cols = tl.arange(0, BLOCK_D)
    b_mask = bags < n_bags
    j_mask = js < bag_size
    c_mask = cols < dim
    bj_mask = b_mask[:, None] & j_mask[None, :]
    ids = tl.load(idx_ptr + bags[:, None] * stride_idx + js[None, :], mask=bj_mask, other=0)
    rows = tl.load(w_ptr + ids[:, :, None] * stride_w + cols[None, None, :],
                   mask=bj_mask[:, :, None] & c_mask[None, None, :], other=0.0)
    sums = tl.sum(rows, axis=1)
    tl.store(out_ptr + bags[:, None] * stride_out + cols[None, :], sums, mask=b_mask[:, None] & c_mask[None, :])


def embedding_bag(weight: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_bags, bag_size = idx.shape
    dim = weight.shape[1]
    out = torch.empty((n_bags, dim), device=weight.device, dtype=torch.float32)
    BLOCK_B, BLOCK_J, BLOCK_D = 4, triton.next_power_of_2(bag_size), triton.next_power_of_2(dim)
    grid = (triton.cdiv(n_bags, BLOCK_B),)
    embedding_bag_kernel[grid](weight, idx, out, n_bags, bag_size, dim, weight.stride(0), idx.stride(0), out.stride(0),
                               BLOCK_B=BLOCK_B, BLOCK_J=BLOCK_J, BLOCK_D=BLOCK_D, num_warps=8)
    return out
