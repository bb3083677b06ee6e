// Out-of-place transpose of a row-major float32 matrix:
// in is rows x cols, out is cols x rows.
#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8

// One element per thread. Reads of `in` are coalesced along x, but
// neighbouring threads write `out` with a stride of `rows` floats.
// kforecast: rows = 4096; cols = 4096; in: f32[rows, cols]; out: f32[rows, cols]
__global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    const int x = blockIdx.x * BLOCK_X + threadIdx.x;  // column of in
    const int y = blockIdx.y * BLOCK_Y + threadIdx.y;  // row of in
    if (x < cols && y < rows)
        out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
}

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    if (rows <= 0 || cols <= 0) return;
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(ceil_div(cols, BLOCK_X), ceil_div(rows, BLOCK_Y));
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
