// Tiled transpose through shared memory: a 32x32 tile is read by rows and written
// by rows of the transposed tile; the tile has no padding (column reads of the
// tile hit one bank).
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 32
#define CUDA_OK(stmt)                                                            \
    do {                                                                         \
        cudaError_t s_ = (stmt);                                                 \
        if (s_ != cudaSuccess) {                                                 \
            fprintf(stderr, "[transpose] %s failed: %s\n", #stmt, cudaGetErrorString(s_)); \
            return (int)s_;                                                      \
        }                                                                        \
    } while (0)
#define OFFSET(r, c, ld) ((size_t)(r) * (size_t)(ld) + (size_t)(c))

__global__ void transpose_tiled_smem(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[OFFSET(y, x, cols)];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows && y < cols)
        out[OFFSET(y, x, rows)] = tile[threadIdx.x][threadIdx.y];
}

extern "C" int transpose_f32(const float* in, float* out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_tiled_smem<<<grid, block>>>(in, out, rows, cols);
    CUDA_OK(cudaGetLastError());
    return 0;
}
