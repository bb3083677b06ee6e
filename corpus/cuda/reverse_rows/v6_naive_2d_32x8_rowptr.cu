// Reverse every row of a matrix: out[r, c] = x[r, cols - 1 - c]. The naive 2-D version
// with 32x8 blocks (a warp covers 32 columns of one row) and the indexing written
// with row pointers and a mirrored column: the same loads and stores.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

// kforecast: rows = 8192; cols = 8192; x: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 0; atol = 0
__global__ void reverse_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int col = blockIdx.x * BX + threadIdx.x;
    const int row = blockIdx.y * BY + threadIdx.y;
    if (row >= rows || col >= cols) return;
    const float* src_row = x + (size_t)row * cols;
    float* dst_row = out + (size_t)row * cols;
    const int mirror = cols - col - 1;
    dst_row[col] = src_row[mirror];
}

extern "C" void launch_reverse_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((cols + BX - 1) / BX, (rows + BY - 1) / BY);
    reverse_rows<<<grid, block, 0, stream>>>(x, out, rows, cols);
}
