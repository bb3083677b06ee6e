// y += A x for a COO matrix: one thread per nonzero as v0, 512-thread blocks, renamed locals and
// the x gather written first (near-tie).
#include <cuda_runtime.h>

#define BLOCK 512

// kforecast: nnz = 1 << 24; rows = 1 << 20; cols = 1 << 20; row: i32[nnz] randint(0, 1048576); col: i32[nnz] randint(0, 1048576); val: f32[nnz] randn; x: f32[cols] randn; y: f32[rows] zeros; outputs = y; rtol = 1e-3; atol = 1e-3
__global__ void spmv_coo(const int* __restrict__ row, const int* __restrict__ col, const float* __restrict__ val,
                         const float* __restrict__ x, float* __restrict__ y, int nnz)
{
    const int k = threadIdx.x + blockIdx.x * BLOCK;
    if (k >= nnz) return;
    const float xc = x[col[k]];
    const int dst = row[k];
    atomicAdd(y + dst, xc * val[k]);
}

extern "C" void launch_spmv_coo(const int* row, const int* col, const float* val, const float* x, float* y, int nnz,
                                cudaStream_t stream)
{
    const int blocks = (nnz + BLOCK - 1) / BLOCK;
    spmv_coo<<<blocks, BLOCK, 0, stream>>>(row, col, val, x, y, nnz);
}
