import torch
import triton
import triton.language as tl


@triton.jit
def _kl_div_batchmean_atomic(LOGQ, P, OUT, n_cols, row_stride, inv_rows,
                             BLOCK_N: tl.constexpr):
    # every row program adds its share of the batch mean into one float
    pid = tl.program_id(0)
    base = pid.to(tl.int64) * row_stride
    total = tl.zeros([BLOCK_N], dtype=tl.float32)
    for c in range(0, n_cols, BLOCK_N):
        idx = c + tl.arange(0, BLOCK_N)
        m = idx < n_cols
        p = tl.load(P + base + idx, mask=m, other=1.0)
        lq = tl.load(LOGQ + base + idx, mask=m, other=0.0)
        total += tl.where(m, p * (tl.log(p) - lq), 0.0)
    tl.atomic_add(OUT, tl.sum(total, axis=0) * inv_rows)


def generate_input(rows, cols, seed):
    torch.manual_seed(seed)
    log_q = torch.randn(rows, cols, device="cuda").log_softmax(-1)
    p = torch.randn(rows, cols, device="cuda").softmax(-1)
    return log_q, p


def custom_kernel(data):
    log_q, p = data
    n_rows, n_cols = log_q.shape
    out = torch.zeros((), device=log_q.device, dtype=torch.float32)
    _kl_div_batchmean_atomic[(n_rows,)](log_q, p, out, n_cols, log_q.stride(0), 1.0 / n_rows,
                                        BLOCK_N=2048, num_warps=8)
    return out
