"""Scatter-add of rows by index with a templated cupy RawModule kernel: one thread per four
consecutive elements of a source row (a float4 load, four float atomicAdds), the target row's
index read once per four elements. Rows whose length is not a multiple of 4 use VEC = 1."""
import cupy as cp
import numpy as np

_CODE = r"""
template <int VEC>
struct __align__(4 * VEC) Chunk { float v[VEC]; };

template <int VEC>
__global__ void scatter_rows_vec(const float* __restrict__ src, const long long* __restrict__ index,
                                 float* __restrict__ out, long long chunks, int dim)
{
    long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= chunks) return;
    const int per_row = dim / VEC;
    long long row = c / per_row;
    int d = (int)(c - row * per_row) * VEC;
    Chunk<VEC> x = *reinterpret_cast<const Chunk<VEC>*>(src + row * dim + d);
    float* o = out + index[row] * dim + d;
#pragma unroll
    for (int e = 0; e < VEC; ++e) atomicAdd(o + e, x.v[e]);
}
"""

_NAMES = ["scatter_rows_vec<4>", "scatter_rows_vec<1>"]
_mod = cp.RawModule(code=_CODE, name_expressions=_NAMES)
_vec4 = _mod.get_function(_NAMES[0])
_vec1 = _mod.get_function(_NAMES[1])


def scatter_add_rows(src, index, num_rows):
    src = cp.ascontiguousarray(src, dtype=cp.float32)
    index = cp.ascontiguousarray(index, dtype=cp.int64)
    rows, dim = src.shape
    out = cp.zeros((num_rows, dim), dtype=cp.float32)
    vec, kernel = (4, _vec4) if dim % 4 == 0 else (1, _vec1)
    chunks = rows * dim // vec
    _kernel_threads = 256
    kernel(((chunks + _kernel_threads - 1) // _kernel_threads,), (_kernel_threads,),
           (src, index, out, np.int64(chunks), np.int32(dim)))
    return out
