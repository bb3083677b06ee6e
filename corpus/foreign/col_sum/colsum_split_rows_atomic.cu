// Column sums: the rows are split into slabs of ROWS_PER_BLOCK, each thread sums one
// column of one slab and adds it to the output with an atomic.
#include <cstdio>
#include <cuda_runtime.h>

#define ROWS_PER_BLOCK 256
#define THREADS 256

#define RETURN_IF_ERROR(expr)                                                           \
    do {                                                                                \
        cudaError_t status_ = (expr);                                                   \
        if (status_ != cudaSuccess) {                                                   \
            fprintf(stderr, "column_sums: %s -> %s\n", #expr, cudaGetErrorString(status_)); \
            return (int)status_;                                                        \
        }                                                                               \
    } while (0)

__global__ void colsum_partial_atomic(const float* __restrict__ x, float* out, int rows, int cols)
{
    const int c = blockIdx.x * THREADS + threadIdx.x;
    const int r0 = blockIdx.y * ROWS_PER_BLOCK;
    if (c >= cols) return;
    const int r1 = min(rows, r0 + ROWS_PER_BLOCK);
    float s = 0.f;
    for (int r = r0; r < r1; ++r) s += x[(size_t)r * cols + c];
    atomicAdd(out + c, s);
}

extern "C" int column_sums(const float* x, float* out, int rows, int cols)
{
    RETURN_IF_ERROR(cudaMemsetAsync(out, 0, sizeof(float) * cols, 0));
    dim3 grid((cols + THREADS - 1) / THREADS, (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    colsum_partial_atomic<<<grid, THREADS>>>(x, out, rows, cols);
    RETURN_IF_ERROR(cudaGetLastError());
    return 0;
}
