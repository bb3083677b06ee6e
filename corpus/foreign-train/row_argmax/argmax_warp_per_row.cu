// Row-wise argmax, one warp per row (8 rows per 256-thread block), butterfly shuffles.
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

#define WARPS_PER_BLOCK 8
#define FULL_MASK 0xffffffffu

__global__ void argmax_warp_rows(const float* __restrict__ x, int* __restrict__ out, int rows,
                                 int cols) {
    int warp = threadIdx.x >> 5;
    int lane = threadIdx.x & 31;
    int r = blockIdx.x * WARPS_PER_BLOCK + warp;
    if (r >= rows) return;  // whole warp leaves together
    const float* row = x + (size_t)r * cols;

    float bv = -FLT_MAX;
    int bj = 0x7fffffff;
    for (int j = lane; j < cols; j += 32) {
        float v = __ldg(row + j);
        if (v > bv) {  // j grows per lane, so '>' keeps the first maximum
            bv = v;
            bj = j;
        }
    }
#pragma unroll
    for (int m = 16; m > 0; m >>= 1) {
        float ov = __shfl_xor_sync(FULL_MASK, bv, m);
        int oj = __shfl_xor_sync(FULL_MASK, bj, m);
        if (ov > bv || (ov == bv && oj < bj)) {
            bv = ov;
            bj = oj;
        }
    }
    if (lane == 0) out[r] = bj;
}

extern "C" int row_argmax(const float* x, int* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return 0;
    int blocks = (rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    argmax_warp_rows<<<blocks, WARPS_PER_BLOCK * 32>>>(x, out, rows, cols);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
