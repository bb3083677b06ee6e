// Column sums: a 32 x 8 block owns 32 columns and a chunk of 512 rows; thread
// (tx, ty) sums rows ty, ty+8, ... of column tx (each row segment is one 128-byte
// line), the 8 partials per column are combined in shared memory (padded), and
// one atomicAdd per column per block goes to out (zeroed beforehand).
#include <cuda_runtime.h>

#define TILE_W      32
#define TILE_H      8
#define CHUNK_ROWS  512

// kforecast: rows = 4096; cols = 4096; x: f32[rows, cols] randn; out: f32[cols] zeros; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(TILE_W * TILE_H)
col_sum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float part[TILE_H][TILE_W + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c = blockIdx.x * TILE_W + tx;
    const int r0 = blockIdx.y * CHUNK_ROWS;
    const int r1 = r0 + CHUNK_ROWS < rows ? r0 + CHUNK_ROWS : rows;
    float s = 0.0f;
    if (c < cols)
        for (int r = r0 + ty; r < r1; r += TILE_H) s += x[(size_t)r * cols + c];
    part[ty][tx] = s;
    __syncthreads();
    if (ty == 0 && c < cols) {
        float t = 0.0f;
#pragma unroll
        for (int k = 0; k < TILE_H; ++k) t += part[k][tx];
        atomicAdd(&out[c], t);
    }
}

extern "C" void launch_col_sum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(TILE_W, TILE_H);
    dim3 grid((cols + TILE_W - 1) / TILE_W, (rows + CHUNK_ROWS - 1) / CHUNK_ROWS);
    col_sum<<<grid, block, 0, stream>>>(x, out, rows, cols);
}
