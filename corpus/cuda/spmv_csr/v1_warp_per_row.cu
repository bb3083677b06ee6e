// y = A @ x, CSR with implicit row pointers (row r at r * max_nnz, row_len[r]
// entries). One warp per row (vector CSR): lanes stride along the row, so the
// reads of vals and col_idx are coalesced; shuffle sum at the end.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 1 << 18; max_nnz = 64; cols = 1 << 20; row_len: i32[rows] randint(8, 57); col_idx: i32[rows, max_nnz] randint(0, 1048576); vals: f32[rows, max_nnz] randn; x: f32[cols] randn; y: f32[rows] zeros; rtol = 1e-3; atol = 1e-3
__global__ void spmv_csr(const int* __restrict__ row_len, const int* __restrict__ col_idx,
                         const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y, int rows,
                         int max_nnz)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const int start = r * max_nnz;
    const int end = start + row_len[r];
    float acc = 0.0f;
    for (int k = start + lane; k < end; k += 32) acc += vals[k] * __ldg(&x[col_idx[k]]);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(FULL_MASK, acc, o);
    if (lane == 0) y[r] = acc;
}

extern "C" void launch_spmv_csr(const int* row_len, const int* col_idx, const float* vals, const float* x, float* y,
                                int rows, int max_nnz, cudaStream_t stream)
{
    spmv_csr<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(row_len, col_idx, vals, x, y, rows, max_nnz);
}
