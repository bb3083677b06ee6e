import torch
import triton
import triton.language as tl


@triton.jit
def route_and_count(L, S, IDX, GATE, CNT, T, E, stride_t,
                    BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr):
    # fused: one atomic increment per token on its expert's counter
    rows = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    cols = tl.arange(0, BLOCK_E)
    rm = rows < T
    logits = tl.load(L + rows.to(tl.int64)[:, None] * stride_t + cols[None, :],
                     mask=rm[:, None] & (cols < E)[None, :], other=-float("inf"))
    choice = tl.argmax(logits, axis=1)
    g = tl.sigmoid(tl.max(logits, axis=1)) * tl.load(S + choice, mask=rm, other=0.0)
    tl.store(IDX + rows, choice, mask=rm)
    tl.store(GATE + rows, g, mask=rm)
    tl.atomic_add(CNT + choice, tl.full([BLOCK_T], 1, tl.int32), mask=rm)


def custom_kernel(data):
    logits, scale = data
    T, E = logits.shape
    idx = torch.empty(T, device=logits.device, dtype=torch.int32)
    gate = torch.empty(T, device=logits.device, dtype=torch.float32)
    counts = torch.zeros(E, device=logits.device, dtype=torch.int32)
    BLOCK_T = 64
    route_and_count[(triton.cdiv(T, BLOCK_T),)](logits, scale, idx, gate, counts, T, E, logits.stride(0),
                                               BLOCK_T=BLOCK_T, BLOCK_E=triton.next_power_of_2(E),
                                               num_warps=4)
    return idx, gate, counts
