"""CSR SpMV, "vector" kernel: one warp per row, lanes stride over the row's nonzeros
(coalesced loads of col_idx / values), then a shuffle reduction."""
import cupy as cp

_src = r"""
extern "C" __global__
void spmv_csr_vector(const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                     const float* __restrict__ vals, const float* __restrict__ x,
                     float* __restrict__ y, int n_rows)
{
    const int lane = threadIdx.x & 31;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= n_rows) return;
    const int begin = row_ptr[row];
    const int end = row_ptr[row + 1];
    float sum = 0.0f;
    for (int p = begin + lane; p < end; p += 32)
        sum += vals[p] * __ldg(x + col_idx[p]);
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0) y[row] = sum;
}
"""
_kernel = cp.RawKernel(_src, "spmv_csr_vector")

THREADS = 256
WARPS = THREADS // 32


def spmv(row_ptr, col_idx, values, x):
    n_rows = row_ptr.size - 1
    y = cp.empty(n_rows, dtype=cp.float32)
    blocks = (n_rows + WARPS - 1) // WARPS
    _kernel((blocks,), (THREADS,), (row_ptr, col_idx, values, x, y, cp.int32(n_rows)))
    return y
