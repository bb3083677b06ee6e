"""Sum-pooled embedding bags, the one-bag [32, 128] gather of v0 rewritten: indices widened to int64
before forming the row offsets, renamed variables; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = embedding_bag(weight, idx); weight: f32[262144, 128] randn; idx: i32[16384, 32] randint(0, 262144); rtol = 1e-3; atol = 1e-3
@triton.jit
def embedding_bag_kernel(w_ptr, idx_ptr, out_ptr, n_bags, bag_size, dim, stride_w, stride_idx, stride_out,
                         BLOCK_B: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    offs_d = tl.arange(0, BLOCK_D)
    offs_j = tl.arange(0, BLOCK_J)
    d_ok = offs_d < dim
    j_ok = offs_j < bag_size
    members = tl.load(idx_ptr + b * stride_idx + offs_j, mask=j_ok, other=0).to(tl.int64)
    gathered = tl.load(w_ptr + members[:, None] * stride_w + offs_d[None, :],
                       mask=j_ok[:, None] & d_ok[None, :], other=0.0)
    pooled = tl.sum(gathered, axis=0)
    tl.store(out_ptr + b.to(tl.int64) * stride_out + offs_d, pooled, mask=d_ok)


def embedding_bag(weight: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_bags, bag_size = idx.shape
    dim = weight.shape[1]
    out = torch.empty((n_bags, dim), device=weight.device, dtype=torch.float32)
    BLOCK_B, BLOCK_J, BLOCK_D = 1, triton.next_power_of_2(bag_size), triton.next_power_of_2(dim)
    grid = (triton.cdiv(n_bags, BLOCK_B),)
    embedding_bag_kernel[grid](weight, idx, out, n_bags, bag_size, dim, weight.stride(0), idx.stride(0), out.stride(0),
                               BLOCK_B=BLOCK_B, BLOCK_J=BLOCK_J, BLOCK_D=BLOCK_D, num_warps=4)
    return out
