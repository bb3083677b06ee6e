"""Scatter-add of rows by index without atomics: sort the indices (cupy argsort), find each
target row's run of sources (searchsorted), then a templated cupy RawModule kernel gives
every target row a block that sums its sources in order and writes the row once."""
import cupy as cp
import numpy as np

_CODE = r"""
template <int THREADS>
__global__ void segment_row_sum(const float* __restrict__ src, const long long* __restrict__ perm,
                                const long long* __restrict__ starts, float* __restrict__ out, int dim)
{
    const int target = blockIdx.x;
    const long long begin = starts[target];
    const long long end = starts[target + 1];
    float* o = out + (long long)target * dim;
    for (int d = threadIdx.x; d < dim; d += THREADS) {
        float acc = 0.0f;
        for (long long j = begin; j < end; ++j) acc += src[perm[j] * dim + d];
        o[d] = acc;
    }
}
"""

THREADS = 256
_NAME = f"segment_row_sum<{THREADS}>"
_mod = cp.RawModule(code=_CODE, name_expressions=[_NAME])
_kernel = _mod.get_function(_NAME)


def scatter_add_rows(src, index, num_rows):
    src = cp.ascontiguousarray(src, dtype=cp.float32)
    index = cp.ascontiguousarray(index, dtype=cp.int64)
    dim = src.shape[1]
    perm = cp.argsort(index).astype(cp.int64)
    starts = cp.searchsorted(index[perm], cp.arange(num_rows + 1, dtype=cp.int64)).astype(cp.int64)
    out = cp.empty((num_rows, dim), dtype=cp.float32)
    _kernel((num_rows,), (THREADS,), (src, perm, starts, out, np.int32(dim)))
    return out
