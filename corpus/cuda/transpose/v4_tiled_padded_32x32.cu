// Out-of-place transpose through a padded 32 x 33 tile with a 32 x 32 block:
// one element per thread, 1024 threads per block.
#include <cuda_runtime.h>

#define TILE 32

// kforecast: rows = 4096; cols = 8192; in: f32[rows, cols] randn; out: f32[cols, rows]; rtol = 0; atol = 0
__global__ void __launch_bounds__(TILE * TILE)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    const int x = blockIdx.x * TILE + threadIdx.x;
    const int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    const int ox = blockIdx.y * TILE + threadIdx.x;
    const int oy = blockIdx.x * TILE + threadIdx.y;
    if (ox < rows && oy < cols) out[(size_t)oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}

extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
