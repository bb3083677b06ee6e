// y = A @ x for a CSR matrix whose row r starts at r * max_nnz (implicit row
// pointers) and holds row_len[r] entries. One thread per row (scalar CSR): a warp
// reads 32 rows 256 bytes apart per step (uncoalesced), long rows stall short ones.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 1 << 18; max_nnz = 64; cols = 1 << 20; row_len: i32[rows] randint(8, 57); col_idx: i32[rows, max_nnz] randint(0, 1048576); vals: f32[rows, max_nnz] randn; x: f32[cols] randn; y: f32[rows] zeros; rtol = 1e-3; atol = 1e-3
__global__ void spmv_csr(const int* __restrict__ row_len, const int* __restrict__ col_idx,
                         const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y, int rows,
                         int max_nnz)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const int start = r * max_nnz;
    const int end = start + row_len[r];
    float acc = 0.0f;
    for (int k = start; k < end; ++k) acc += vals[k] * x[col_idx[k]];
    y[r] = acc;
}

extern "C" void launch_spmv_csr(const int* row_len, const int* col_idx, const float* vals, const float* x, float* y,
                                int rows, int max_nnz, cudaStream_t stream)
{
    spmv_csr<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(row_len, col_idx, vals, x, y, rows, max_nnz);
}
