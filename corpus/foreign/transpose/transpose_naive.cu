// Out-of-place matrix transpose, float32, row-major.
// One thread per element: reads along a row (coalesced), writes down a column.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                              \
    do {                                                                              \
        cudaError_t err__ = (call);                                                   \
        if (err__ != cudaSuccess) {                                                   \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            return (int)err__;                                                        \
        }                                                                             \
    } while (0)

#define IDX(r, c, ld) ((size_t)(r) * (ld) + (c))
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
#define BX 32
#define BY 8

__global__ void transpose_naive(const float* in, float* out, int rows, int cols)
{
    int c = blockIdx.x * BX + threadIdx.x;
    int r = blockIdx.y * BY + threadIdx.y;
    if (r < rows && c < cols)
        out[IDX(c, r, rows)] = in[IDX(r, c, cols)];
}

extern "C" int transpose_f32(const float* in, float* out, int rows, int cols)
{
    dim3 block(BX, BY);
    dim3 grid(CEIL_DIV(cols, BX), CEIL_DIV(rows, BY));
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
