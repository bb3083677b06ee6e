// Out-of-place transpose of a row-major float32 matrix:
// in is rows x cols, out is cols x rows.
#include <cuda_runtime.h>

#define TILE_DIM   32
#define BLOCK_ROWS 8   // each thread moves TILE_DIM / BLOCK_ROWS = 4 elements

// A 32x32 tile goes through shared memory so that both the global read and
// the global write are row-wise (coalesced). The +1 column of padding puts
// tile[i][c] and tile[i+1][c] in different banks, so the column-wise read
// from shared memory is free of bank conflicts.
// kforecast: rows = 4096; cols = 4096; in: f32[rows, cols]; out: f32[rows, cols]
__global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;  // column of in
    int y = blockIdx.y * TILE_DIM + threadIdx.y;  // row of in

#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    }

    __syncthreads();

    // Swap the block coordinates: this block writes the transposed tile.
    x = blockIdx.y * TILE_DIM + threadIdx.x;  // column of out (= row of in)
    y = blockIdx.x * TILE_DIM + threadIdx.y;  // row of out (= column of in)

#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    if (rows <= 0 || cols <= 0) return;
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid(ceil_div(cols, TILE_DIM), ceil_div(rows, TILE_DIM));
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
