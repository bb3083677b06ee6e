// y = A @ x, CSR with implicit row pointers (row r at r * max_nnz, row_len[r]
// entries). Rows average ~32 entries, so 8 lanes per row instead of 32: a warp
// works on 4 rows at once, fewer idle lanes, 3-step shuffle sum inside each group.
#include <cuda_runtime.h>

#define THREADS        256
#define LANES          8
#define ROWS_PER_BLOCK (THREADS / LANES)
#define FULL_MASK      0xffffffffu

// kforecast: rows = 1 << 18; max_nnz = 64; cols = 1 << 20; row_len: i32[rows] randint(8, 57); col_idx: i32[rows, max_nnz] randint(0, 1048576); vals: f32[rows, max_nnz] randn; x: f32[cols] randn; y: f32[rows] zeros; rtol = 1e-3; atol = 1e-3
__global__ void spmv_csr(const int* __restrict__ row_len, const int* __restrict__ col_idx,
                         const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y, int rows,
                         int max_nnz)
{
    const int sub = threadIdx.x & (LANES - 1);
    const int r = blockIdx.x * ROWS_PER_BLOCK + threadIdx.x / LANES;
    const bool valid = r < rows;
    float acc = 0.0f;
    if (valid) {
        const int start = r * max_nnz;
        const int end = start + row_len[r];
        for (int k = start + sub; k < end; k += LANES) acc += vals[k] * __ldg(&x[col_idx[k]]);
    }
#pragma unroll
    for (int o = LANES / 2; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, o);
    if (valid && sub == 0) y[r] = acc;
}

extern "C" void launch_spmv_csr(const int* row_len, const int* col_idx, const float* vals, const float* x, float* y,
                                int rows, int max_nnz, cudaStream_t stream)
{
    spmv_csr<<<(rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK, THREADS, 0, stream>>>(row_len, col_idx, vals, x, y, rows,
                                                                                    max_nnz);
}
