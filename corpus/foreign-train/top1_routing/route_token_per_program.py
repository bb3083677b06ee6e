import torch
import triton
import triton.language as tl


@triton.jit
def route_one_token(logits_ptr, scale_ptr, idx_ptr, gate_ptr, cnt_ptr, n_experts, stride_t,
                    BLOCK_E: tl.constexpr):
    # one program (one warp) per token
    tok = tl.program_id(0)
    e = tl.arange(0, BLOCK_E)
    x = tl.load(logits_ptr + tok.to(tl.int64) * stride_t + e, mask=e < n_experts, other=-float("inf"))
    best = tl.argmax(x, axis=0)
    tl.store(idx_ptr + tok, best)
    tl.store(gate_ptr + tok, tl.sigmoid(tl.max(x, axis=0)) * tl.load(scale_ptr + best))
    tl.atomic_add(cnt_ptr + best, 1)


def custom_kernel(data):
    logits, scale = data
    n_tokens, n_experts = logits.shape
    idx = torch.empty(n_tokens, device=logits.device, dtype=torch.int32)
    gate = torch.empty(n_tokens, device=logits.device, dtype=torch.float32)
    counts = torch.zeros(n_experts, device=logits.device, dtype=torch.int32)
    route_one_token[(n_tokens,)](logits, scale, idx, gate, counts, n_experts, logits.stride(0),
                                 BLOCK_E=triton.next_power_of_2(n_experts), num_warps=1)
    return idx, gate, counts
