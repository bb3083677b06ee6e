"""Scatter-add of rows by index with a templated cupy RawModule kernel, one thread per source
element with the flat thread index running down the rows first (element (i, d) at
t = d * M + i): neighbouring threads read and add to addresses a whole row apart."""
import cupy as cp
import numpy as np

_CODE = r"""
template <typename T>
__global__ void scatter_add_colwise(const T* __restrict__ src, const long long* __restrict__ index,
                                    T* __restrict__ out, long long rows, int dim)
{
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= rows * dim) return;
    long long i = t % rows;
    int d = (int)(t / rows);
    atomicAdd(&out[index[i] * dim + d], src[i * dim + d]);
}
"""

_NAME = "scatter_add_colwise<float>"
_mod = cp.RawModule(code=_CODE, name_expressions=[_NAME])
_kernel = _mod.get_function(_NAME)


def scatter_add_rows(src, index, num_rows):
    src = cp.ascontiguousarray(src, dtype=cp.float32)
    index = cp.ascontiguousarray(index, dtype=cp.int64)
    rows, dim = src.shape
    out = cp.zeros((num_rows, dim), dtype=cp.float32)
    total = rows * dim
    _kernel(((total + 255) // 256,), (256,), (src, index, out, np.int64(rows), np.int32(dim)))
    return out
