import torch
import triton
import triton.language as tl


@triton.jit
def moe_top1_hist_kernel(logit_ptr, scale_ptr, idx_ptr, gate_ptr, count_ptr, n_tok, n_exp, row_stride,
                         BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr):
    # the block's tokens are counted per expert in registers, then one atomic per expert
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    e = tl.arange(0, BLOCK_E)
    tm = t < n_tok
    em = e < n_exp
    x = tl.load(logit_ptr + t.to(tl.int64)[:, None] * row_stride + e[None, :],
                mask=tm[:, None] & em[None, :], other=-float("inf"))
    k = tl.argmax(x, axis=1)
    gate = tl.sigmoid(tl.max(x, axis=1)) * tl.load(scale_ptr + k, mask=tm, other=0.0)
    tl.store(idx_ptr + t, k, mask=tm)
    tl.store(gate_ptr + t, gate, mask=tm)
    onehot = ((k[:, None] == e[None, :]) & tm[:, None]).to(tl.int32)
    tl.atomic_add(count_ptr + e, tl.sum(onehot, axis=0), mask=em)


def generate_input(tokens, experts, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(tokens, experts, device="cuda", generator=g),
            0.5 + torch.rand(experts, device="cuda", generator=g))


def custom_kernel(data):
    logits, scale = data
    n_tok, n_exp = logits.shape
    idx = torch.empty(n_tok, device=logits.device, dtype=torch.int32)
    gate = torch.empty(n_tok, device=logits.device, dtype=torch.float32)
    counts = torch.zeros(n_exp, device=logits.device, dtype=torch.int32)
    BLOCK_T = 128
    moe_top1_hist_kernel[(triton.cdiv(n_tok, BLOCK_T),)](
        logits, scale, idx, gate, counts, n_tok, n_exp, logits.stride(0),
        BLOCK_T=BLOCK_T, BLOCK_E=triton.next_power_of_2(n_exp), num_warps=4)
    return idx, gate, counts
