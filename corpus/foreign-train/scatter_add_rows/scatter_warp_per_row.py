"""Scatter-add of rows by index with a templated cupy RawModule kernel: one warp per source
row (the row's target index read once by lane 0 and broadcast), lanes striding over the row's
elements with float atomicAdd."""
import cupy as cp
import numpy as np

_CODE = r"""
template <int WARPS>
__global__ void scatter_rows_warp(const float* __restrict__ src, const long long* __restrict__ index,
                                  float* __restrict__ out, int rows, int dim)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (row >= rows) return;
    long long target = 0;
    if (lane == 0) target = index[row];
    target = __shfl_sync(0xffffffffu, target, 0);
    const float* s = src + (long long)row * dim;
    float* o = out + target * dim;
    for (int d = lane; d < dim; d += 32) atomicAdd(o + d, s[d]);
}
"""

WARPS = 8
_NAME = f"scatter_rows_warp<{WARPS}>"
_mod = cp.RawModule(code=_CODE, name_expressions=[_NAME])
_kernel = _mod.get_function(_NAME)


def scatter_add_rows(src, index, num_rows):
    src = cp.ascontiguousarray(src, dtype=cp.float32)
    index = cp.ascontiguousarray(index, dtype=cp.int64)
    rows, dim = src.shape
    out = cp.zeros((num_rows, dim), dtype=cp.float32)
    _kernel(((rows + WARPS - 1) // WARPS,), (WARPS * 32,), (src, index, out, np.int32(rows), np.int32(dim)))
    return out
