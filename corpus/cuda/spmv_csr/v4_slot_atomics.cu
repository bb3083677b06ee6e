// y = A @ x, CSR with implicit row pointers (row r at r * max_nnz, row_len[r]
// entries). Element-parallel (COO style): one thread per storage slot, used
// slots atomicAdd their product into y[row]; up to 32 lanes of a warp hit the
// same y element, so the atomics serialise (y starts from zeros).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 1 << 18; max_nnz = 64; cols = 1 << 20; row_len: i32[rows] randint(8, 57); col_idx: i32[rows, max_nnz] randint(0, 1048576); vals: f32[rows, max_nnz] randn; x: f32[cols] randn; y: f32[rows] zeros; rtol = 1e-3; atol = 1e-3
__global__ void spmv_csr(const int* __restrict__ row_len, const int* __restrict__ col_idx,
                         const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y, int rows,
                         int max_nnz)
{
    const int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= rows * max_nnz) return;
    const int r = e / max_nnz;
    const int k = e - r * max_nnz;
    if (k < row_len[r]) atomicAdd(&y[r], vals[e] * x[col_idx[e]]);
}

extern "C" void launch_spmv_csr(const int* row_len, const int* col_idx, const float* vals, const float* x, float* y,
                                int rows, int max_nnz, cudaStream_t stream)
{
    const int slots = rows * max_nnz;
    spmv_csr<<<(slots + THREADS - 1) / THREADS, THREADS, 0, stream>>>(row_len, col_idx, vals, x, y, rows, max_nnz);
}
