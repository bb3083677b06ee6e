// Column sums with 32x8 thread blocks: each block owns 32 columns and a slab of rows,
// its 8 thread rows stride through the slab, the 8 partial sums of a column meet in
// shared memory, and one atomic per column and block goes to the output.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE_C 32
#define TILE_R 8
#define SLAB 512
#define CUDA_TRY(x)                                                                   \
    do {                                                                              \
        cudaError_t e__ = (x);                                                        \
        if (e__ != cudaSuccess) {                                                     \
            fprintf(stderr, "column_sums: %s (%s)\n", cudaGetErrorString(e__), #x);   \
            return (int)e__;                                                          \
        }                                                                             \
    } while (0)

__global__ void colsum_tile_2d(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float part[TILE_R][TILE_C + 1];
    const int c = blockIdx.x * TILE_C + threadIdx.x;
    const int r0 = blockIdx.y * SLAB;
    const int r1 = min(rows, r0 + SLAB);
    float s = 0.f;
    if (c < cols)
        for (int r = r0 + threadIdx.y; r < r1; r += TILE_R) s += x[(size_t)r * cols + c];
    part[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0 && c < cols) {
        float t = 0.f;
#pragma unroll
        for (int k = 0; k < TILE_R; ++k) t += part[k][threadIdx.x];
        atomicAdd(&out[c], t);
    }
}

extern "C" int column_sums(const float* x, float* out, int rows, int cols)
{
    CUDA_TRY(cudaMemset(out, 0, (size_t)cols * sizeof(float)));
    dim3 block(TILE_C, TILE_R);
    dim3 grid((cols + TILE_C - 1) / TILE_C, (rows + SLAB - 1) / SLAB);
    colsum_tile_2d<<<grid, block>>>(x, out, rows, cols);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
