// Tiled transpose, 32x33 padded tile (no bank conflicts), 32x8 threads moving
// four elements each.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8
#define PAD 1
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
#define FOR_ROWS(j) for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)

__global__ void transpose_padded_tile(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + PAD];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
#pragma unroll
    FOR_ROWS(j)
    {
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[IDX(y + j, x, cols)];
    }
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
#pragma unroll
    FOR_ROWS(j)
    {
        if (x < rows && y + j < cols)
            out[IDX(y + j, x, rows)] = tile[threadIdx.x][threadIdx.y + j];
    }
}

extern "C" int transpose_f32(const float* in, float* out, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid(CEIL_DIV(cols, TILE_DIM), CEIL_DIV(rows, TILE_DIM));
    transpose_padded_tile<<<grid, block>>>(in, out, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
