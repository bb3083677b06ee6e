import torch
import triton
import triton.language as tl


@triton.jit
def logit_softcap_masked_flat(s_ptr, m_ptr, o_ptr, n_elements, plane, cap, BLOCK: tl.constexpr):
    idx = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    ok = idx < n_elements
    s = tl.load(s_ptr + idx, mask=ok, other=0.0).to(tl.float32)
    hide = tl.load(m_ptr + idx % plane, mask=ok)
    z = s / cap
    tanh_z = 1.0 - 2.0 / (tl.exp(2.0 * z) + 1.0)
    tl.store(o_ptr + idx, tl.where(hide, float("-inf"), cap * tanh_z).to(tl.float16), mask=ok)


def softcap_scores(scores, causal_mask, cap):
    scores = scores.contiguous()
    causal_mask = causal_mask.contiguous()
    out = torch.empty_like(scores)
    n = scores.numel()
    BLOCK = 4096
    logit_softcap_masked_flat[(triton.cdiv(n, BLOCK),)](scores, causal_mask, out, n, causal_mask.numel(), cap,
                                                        BLOCK=BLOCK, num_warps=8)
    return out
