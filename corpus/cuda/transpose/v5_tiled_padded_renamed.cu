// Matrix transpose (in: rows x cols -> out: cols x rows) staged through shared
// memory. Tile 32 x 32 with a padding column; 32 x 8 threads, 4 rows each.
#include <cuda_runtime.h>

#define TILE_DIM  32
#define ROWS_STEP 8
#define PAD       1

// kforecast: rows = 4096; cols = 8192; in: f32[rows, cols] randn; out: f32[cols, rows]; rtol = 0; atol = 0
__global__ void __launch_bounds__(TILE_DIM * ROWS_STEP)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float buf[TILE_DIM][TILE_DIM + PAD];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int in_col = blockIdx.x * TILE_DIM + tx;
    const int in_row0 = blockIdx.y * TILE_DIM + ty;
    const int out_col = blockIdx.y * TILE_DIM + tx;
    const int out_row0 = blockIdx.x * TILE_DIM + ty;
#pragma unroll
    for (int k = 0; k < TILE_DIM / ROWS_STEP; ++k) {
        const int row = in_row0 + k * ROWS_STEP;
        if (row < rows && in_col < cols) buf[ty + k * ROWS_STEP][tx] = in[(size_t)row * cols + in_col];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE_DIM / ROWS_STEP; ++k) {
        const int row = out_row0 + k * ROWS_STEP;
        if (row < cols && out_col < rows) out[(size_t)row * rows + out_col] = buf[tx][ty + k * ROWS_STEP];
    }
}

extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 threads(TILE_DIM, ROWS_STEP);
    dim3 blocks((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose<<<blocks, threads, 0, stream>>>(in, out, rows, cols);
}
