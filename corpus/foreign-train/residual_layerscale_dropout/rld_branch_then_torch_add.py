import torch
import triton
import triton.language as tl


@triton.jit
def scaled_dropout_branch(y_ptr, gamma_ptr, keep_ptr, out_ptr, n, cols, scale, BLOCK: tl.constexpr):
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    valid = i < n
    y = tl.load(y_ptr + i, mask=valid, other=0.0).to(tl.float32)
    keep = tl.load(keep_ptr + i, mask=valid)
    g = tl.load(gamma_ptr + i % cols, mask=valid, other=0.0).to(tl.float32)
    tl.store(out_ptr + i, tl.where(keep, g * y * scale, 0.0).to(tl.bfloat16), mask=valid)


def residual_dropout_add(x, y, gamma, keep, p):
    branch = torch.empty_like(y)
    n = y.numel()
    BLOCK = 2048
    scaled_dropout_branch[(triton.cdiv(n, BLOCK),)](y, gamma, keep, branch, n, y.size(-1),
                                                    1.0 / (1.0 - p), BLOCK=BLOCK, num_warps=8)
    return torch.add(x, branch)
