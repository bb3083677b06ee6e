import torch
import triton
import triton.language as tl


@triton.jit
def top1_route_kernel(logits_ptr, scale_ptr, idx_ptr, gate_ptr, n_tokens, n_experts, stride_t,
                      BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr):
    tok = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    e = tl.arange(0, BLOCK_E)
    tmask = tok < n_tokens
    m = tmask[:, None] & (e < n_experts)[None, :]
    x = tl.load(logits_ptr + tok.to(tl.int64)[:, None] * stride_t + e[None, :], mask=m, other=-float("inf"))
    best = tl.argmax(x, axis=1)
    top = tl.max(x, axis=1)
    gate = tl.sigmoid(top) * tl.load(scale_ptr + best, mask=tmask, other=0.0)
    tl.store(idx_ptr + tok, best, mask=tmask)
    tl.store(gate_ptr + tok, gate, mask=tmask)


def generate_input(tokens, experts, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(tokens, experts, device="cuda", generator=g),
            0.5 + torch.rand(experts, device="cuda", generator=g))


def custom_kernel(data):
    logits, scale = data
    n_tokens, n_experts = logits.shape
    idx = torch.empty(n_tokens, device=logits.device, dtype=torch.int32)
    gate = torch.empty(n_tokens, device=logits.device, dtype=torch.float32)
    BLOCK_T = 64
    top1_route_kernel[(triton.cdiv(n_tokens, BLOCK_T),)](
        logits, scale, idx, gate, n_tokens, n_experts, logits.stride(0),
        BLOCK_T=BLOCK_T, BLOCK_E=triton.next_power_of_2(n_experts), num_warps=4)
    counts = torch.bincount(idx.long(), minlength=n_experts).to(torch.int32)
    return idx, gate, counts
