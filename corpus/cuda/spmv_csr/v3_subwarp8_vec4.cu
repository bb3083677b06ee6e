// y = A @ x, CSR with implicit row pointers (row r at r * max_nnz, row_len[r]
// entries). 8 lanes per row, each lane loads 4 consecutive entries at once as
// int4 / float4 (max_nnz % 4 == 0, so every row starts 16-byte aligned); the
// tail of a row is masked, slots past row_len are read but not used.
#include <cuda_runtime.h>

#define THREADS        256
#define LANES          8
#define ROWS_PER_BLOCK (THREADS / LANES)
#define FULL_MASK      0xffffffffu

// kforecast: rows = 1 << 18; max_nnz = 64; cols = 1 << 20; row_len: i32[rows] randint(8, 57); col_idx: i32[rows, max_nnz] randint(0, 1048576); vals: f32[rows, max_nnz] randn; x: f32[cols] randn; y: f32[rows] zeros; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
spmv_csr(const int* __restrict__ row_len, const int* __restrict__ col_idx, const float* __restrict__ vals,
         const float* __restrict__ x, float* __restrict__ y, int rows, int max_nnz)
{
    const int sub = threadIdx.x & (LANES - 1);
    const int r = blockIdx.x * ROWS_PER_BLOCK + threadIdx.x / LANES;
    const bool valid = r < rows;
    const int len = valid ? row_len[r] : 0;
    float acc = 0.0f;
    if (valid) {
        const int4* c4 = reinterpret_cast<const int4*>(col_idx + (size_t)r * max_nnz);
        const float4* v4 = reinterpret_cast<const float4*>(vals + (size_t)r * max_nnz);
        for (int j = sub; 4 * j < len; j += LANES) {
            const int4 c = c4[j];
            const float4 v = v4[j];
            const int k = 4 * j;
            acc += v.x * __ldg(&x[c.x]);
            if (k + 1 < len) acc += v.y * __ldg(&x[c.y]);
            if (k + 2 < len) acc += v.z * __ldg(&x[c.z]);
            if (k + 3 < len) acc += v.w * __ldg(&x[c.w]);
        }
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
