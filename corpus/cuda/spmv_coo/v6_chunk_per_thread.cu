// y += A x for a COO matrix: each thread walks its own chunk of 16 consecutive nonzeros, so a
// warp's loads are 64 bytes apart per step (uncoalesced, strided nonzero-to-thread mapping).
#include <cuda_runtime.h>

#define THREADS 256
#define CHUNK   16

// kforecast: nnz = 1 << 24; rows = 1 << 20; cols = 1 << 20; row: i32[nnz] randint(0, 1048576); col: i32[nnz] randint(0, 1048576); val: f32[nnz] randn; x: f32[cols] randn; y: f32[rows] zeros; outputs = y; rtol = 1e-3; atol = 1e-3
__global__ void spmv_coo(const int* __restrict__ row, const int* __restrict__ col, const float* __restrict__ val,
                         const float* __restrict__ x, float* __restrict__ y, int nnz)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int begin = t * CHUNK;
    const int end = min(begin + CHUNK, nnz);
    for (int i = begin; i < end; ++i) atomicAdd(&y[row[i]], val[i] * x[col[i]]);
}

extern "C" void launch_spmv_coo(const int* row, const int* col, const float* val, const float* x, float* y, int nnz,
                                cudaStream_t stream)
{
    const int chunks = (nnz + CHUNK - 1) / CHUNK;
    spmv_coo<<<(chunks + THREADS - 1) / THREADS, THREADS, 0, stream>>>(row, col, val, x, y, nnz);
}
