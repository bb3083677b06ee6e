// Row-wise argmax, one thread per row: the thread walks its whole row.
#include <cfloat>
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_TRY(expr)                                                               \
    do {                                                                             \
        cudaError_t status_ = (expr);                                                \
        if (status_ != cudaSuccess) {                                                \
            fprintf(stderr, "row_argmax: %s: %s\n", #expr, cudaGetErrorString(status_)); \
            return (int)status_;                                                     \
        }                                                                            \
    } while (0)

__global__ void argmax_rows_naive(const float* __restrict__ x, int* __restrict__ out, int rows,
                                  int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* row = x + (size_t)r * cols;
    float best = -FLT_MAX;
    int best_j = 0;
    for (int j = 0; j < cols; ++j) {
        float v = row[j];
        if (v > best) {
            best = v;
            best_j = j;
        }
    }
    out[r] = best_j;
}

extern "C" int row_argmax(const float* x, int* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return 0;
    int threads = 128;
    int blocks = (rows + threads - 1) / threads;
    argmax_rows_naive<<<blocks, threads>>>(x, out, rows, cols);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
