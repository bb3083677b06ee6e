"""CSR SpMV, one thread per nonzero: each thread finds its row by binary search over
row_ptr and adds its product into y with atomicAdd (y zeroed first)."""
import cupy as cp

_k = cp.RawKernel(r"""
extern "C" __global__
void spmv_nnz_atomic(const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                     const float* __restrict__ vals, const float* __restrict__ x,
                     float* __restrict__ y, int n_rows, long long nnz)
{
    long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= nnz) return;
    int lo = 0, hi = n_rows - 1;          // largest row with row_ptr[row] <= p
    while (lo < hi) {
        int mid = (lo + hi + 1) >> 1;
        if (row_ptr[mid] <= p) lo = mid; else hi = mid - 1;
    }
    atomicAdd(&y[lo], vals[p] * x[col_idx[p]]);
}
""", "spmv_nnz_atomic")


def spmv(row_ptr, col_idx, values, x):
    n_rows = row_ptr.size - 1
    nnz = col_idx.size
    y = cp.zeros(n_rows, dtype=cp.float32)
    if nnz == 0:
        return y
    threads = 256
    _k(((nnz + threads - 1) // threads,), (threads,),
       (row_ptr, col_idx, values, x, y, cp.int32(n_rows), cp.int64(nnz)))
    return y
