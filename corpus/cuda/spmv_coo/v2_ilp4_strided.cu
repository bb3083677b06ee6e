// y += A x for a COO matrix: each thread takes 4 nonzeros THREADS apart (coalesced), issues all
// index/value loads and x gathers before its 4 atomics (ILP).
#include <cuda_runtime.h>

#define THREADS 256
#define ILP     4

// kforecast: nnz = 1 << 24; rows = 1 << 20; cols = 1 << 20; row: i32[nnz] randint(0, 1048576); col: i32[nnz] randint(0, 1048576); val: f32[nnz] randn; x: f32[cols] randn; y: f32[rows] zeros; outputs = y; rtol = 1e-3; atol = 1e-3
__global__ void spmv_coo(const int* __restrict__ row, const int* __restrict__ col, const float* __restrict__ val,
                         const float* __restrict__ x, float* __restrict__ y, int nnz)
{
    const int base = blockIdx.x * (THREADS * ILP) + threadIdx.x;
    int r[ILP];
    float p[ILP];
#pragma unroll
    for (int k = 0; k < ILP; ++k) {
        const int i = base + k * THREADS;
        r[k] = -1;
        p[k] = 0.0f;
        if (i < nnz) {
            r[k] = row[i];
            p[k] = val[i] * x[col[i]];
        }
    }
#pragma unroll
    for (int k = 0; k < ILP; ++k)
        if (r[k] >= 0) atomicAdd(&y[r[k]], p[k]);
}

extern "C" void launch_spmv_coo(const int* row, const int* col, const float* val, const float* x, float* y, int nnz,
                                cudaStream_t stream)
{
    spmv_coo<<<(nnz + THREADS * ILP - 1) / (THREADS * ILP), THREADS, 0, stream>>>(row, col, val, x, y, nnz);
}
