import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536
EPS = 1e-8


def _num_warps(block_size):
    if block_size >= 16384:
        return 16
    if block_size >= 4096:
        return 8
    if block_size >= 1024:
        return 4
    return 2


@triton.jit
def _cos_sim_fwd(X1, X2, OUT, x1_row_stride, x2_row_stride, n_cols, eps,
                 BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    a = tl.load(X1 + row * x1_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(X2 + row * x2_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    dot = tl.sum(a * b, axis=0)
    na = tl.sqrt(tl.sum(a * a, axis=0))
    nb = tl.sqrt(tl.sum(b * b, axis=0))
    tl.store(OUT + row, dot / tl.maximum(na * nb, eps))


class CosineSimilarityFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x1, x2, eps):
        shape = x1.shape
        n_cols = shape[-1]
        x1 = x1.contiguous().view(-1, n_cols)
        x2 = x2.contiguous().view(-1, n_cols)
        n_rows = x1.shape[0]
        BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(n_cols))
        if n_cols > BLOCK_SIZE:
            raise RuntimeError(f"rows of {n_cols} elements do not fit one block")
        out = torch.empty(n_rows, device=x1.device, dtype=torch.float32)
        _cos_sim_fwd[(n_rows,)](
            x1, x2, out, x1.stride(0), x2.stride(0), n_cols, eps,
            BLOCK_SIZE=BLOCK_SIZE, num_warps=_num_warps(BLOCK_SIZE),
        )
        return out.view(shape[:-1])


def cosine_similarity(x1, x2, eps=EPS):
    return CosineSimilarityFunction.apply(x1, x2, eps)
