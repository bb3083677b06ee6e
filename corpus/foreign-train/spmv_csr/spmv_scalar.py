"""CSR sparse matrix-vector product, scalar kernel: one thread per row."""
import cupy as cp

spmv_csr_scalar = cp.RawKernel(r"""
extern "C" __global__
void spmv_csr_scalar(const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                     const float* __restrict__ vals, const float* __restrict__ x,
                     float* __restrict__ y, int n_rows)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n_rows) {
        float sum = 0.0f;
        for (int p = row_ptr[row]; p < row_ptr[row + 1]; ++p)
            sum += vals[p] * x[col_idx[p]];
        y[row] = sum;
    }
}
""", "spmv_csr_scalar")


def spmv(row_ptr, col_idx, values, x):
    n_rows = row_ptr.size - 1
    y = cp.empty(n_rows, dtype=cp.float32)
    threads = 256
    spmv_csr_scalar(((n_rows + threads - 1) // threads,), (threads,),
                    (row_ptr, col_idx, values, x, y, cp.int32(n_rows)))
    return y
