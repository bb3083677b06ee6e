"""Scatter-add of rows by index, out[index[i], :] += src[i, :], with a templated cupy
RawModule kernel: one thread per source element, one float atomicAdd each."""
import cupy as cp
import numpy as np

_CODE = r"""
template <typename T>
__global__ void scatter_rows_elem(const T* __restrict__ src, const long long* __restrict__ index,
                                  T* __restrict__ out, long long total, int dim)
{
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total) return;
    long long row = t / dim;
    int d = (int)(t - row * dim);
    atomicAdd(&out[index[row] * dim + d], src[t]);
}
"""

_NAMES = ["scatter_rows_elem<float>"]
_mod = cp.RawModule(code=_CODE, name_expressions=_NAMES)
_kernel = _mod.get_function(_NAMES[0])


def scatter_add_rows(src, index, num_rows):
    src = cp.ascontiguousarray(src, dtype=cp.float32)
    index = cp.ascontiguousarray(index, dtype=cp.int64)
    m, dim = src.shape
    out = cp.zeros((num_rows, dim), dtype=cp.float32)
    total = m * dim
    threads = 256
    _kernel(((total + threads - 1) // threads,), (threads,),
            (src, index, out, np.int64(total), np.int32(dim)))
    return out
