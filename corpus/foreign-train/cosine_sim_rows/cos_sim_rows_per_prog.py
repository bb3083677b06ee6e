import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536
TILE_ELEMS = 8192


def warps_for(block_elems):
    return 8 if block_elems >= 8192 else 4


@triton.heuristics({
    "BLOCK_M": lambda args: max(1, TILE_ELEMS // triton.next_power_of_2(args["n_cols"])),
    "EVEN_M": lambda args: args["n_rows"] % max(1, TILE_ELEMS // triton.next_power_of_2(args["n_cols"])) == 0,
})
@triton.jit
def _cosine_multi_row(x1_ptr, x2_ptr, y_ptr, n_rows, n_cols, s1, s2, eps,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, EVEN_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    rows64 = rows.to(tl.int64)
    if EVEN_M:
        m = (cols < n_cols)[None, :]
    else:
        m = (rows < n_rows)[:, None] & (cols < n_cols)[None, :]
    a = tl.load(x1_ptr + rows64[:, None] * s1 + cols[None, :], mask=m, other=0.0)
    b = tl.load(x2_ptr + rows64[:, None] * s2 + cols[None, :], mask=m, other=0.0)
    num = tl.sum(a * b, axis=1)
    den = tl.sqrt(tl.sum(a * a, axis=1)) * tl.sqrt(tl.sum(b * b, axis=1))
    tl.store(y_ptr + rows, num / tl.maximum(den, eps), mask=rows < n_rows)


class CosineSimilarityMultiRow(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x1, x2, eps):
        n_cols = x1.shape[-1]
        x1_2d = x1.contiguous().view(-1, n_cols)
        x2_2d = x2.contiguous().view(-1, n_cols)
        n_rows = x1_2d.shape[0]
        BLOCK_N = min(MAX_FUSED_SIZE, triton.next_power_of_2(n_cols))
        block_m = max(1, TILE_ELEMS // BLOCK_N)
        out = torch.empty(n_rows, device=x1.device, dtype=torch.float32)
        grid = (triton.cdiv(n_rows, block_m),)
        _cosine_multi_row[grid](x1_2d, x2_2d, out, n_rows, n_cols, x1_2d.stride(0), x2_2d.stride(0),
                                eps, BLOCK_N=BLOCK_N, num_warps=warps_for(block_m * BLOCK_N))
        return out.view(x1.shape[:-1])


def cosine_similarity(x1, x2, eps=1e-8):
    return CosineSimilarityMultiRow.apply(x1, x2, eps)
