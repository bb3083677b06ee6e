"""Sum-pooled embedding bags out[b, :] = sum_j W[idx[b, j], :] (fp32 W [262144, 128], 16384 bags of
32): one program per bag loads its 32 indices as a vector, gathers a [32, 128] tile of table
rows and reduces it over axis 0; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = embedding_bag(weight, idx); weight: f32[262144, 128] randn; idx: i32[16384, 32] randint(0, 262144); rtol = 1e-3; atol = 1e-3
@triton.jit
def embedding_bag_kernel(w_ptr, idx_ptr, out_ptr, n_bags, bag_size, dim, stride_w, stride_idx, stride_out,
                         BLOCK_B: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_D: tl.constexpr):
    bag = tl.program_id(0)
    js = tl.arange(0, BLOCK_J)
    cols = tl.arange(0, BLOCK_D)
    j_mask = js < bag_size
    c_mask = cols < dim
    ids = tl.load(idx_ptr + bag * stride_idx + js, mask=j_mask, other=0)
    rows = tl.load(w_ptr + ids[:, None] * stride_w + cols[None, :], mask=j_mask[:, None] & c_mask[None, :], other=0.0)
    tl.store(out_ptr + bag * stride_out + cols, tl.sum(rows, axis=0), mask=c_mask)


def embedding_bag(weight: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_bags, bag_size = idx.shape
    dim = weight.shape[1]
    out = torch.empty((n_bags, dim), device=weight.device, dtype=torch.float32)
    BLOCK_B, BLOCK_J, BLOCK_D = 1, triton.next_power_of_2(bag_size), triton.next_power_of_2(dim)
    grid = (triton.cdiv(n_bags, BLOCK_B),)
    embedding_bag_kernel[grid](weight, idx, out, n_bags, bag_size, dim, weight.stride(0), idx.stride(0), out.stride(0),
                               BLOCK_B=BLOCK_B, BLOCK_J=BLOCK_J, BLOCK_D=BLOCK_D, num_warps=4)
    return out
