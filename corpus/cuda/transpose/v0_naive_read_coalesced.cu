// Out-of-place transpose: in is rows x cols (row-major), out is cols x rows.
// Naive: threadIdx.x runs along a row of in, so reads are coalesced and writes
// are strided by rows * 4 bytes.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

// kforecast: rows = 4096; cols = 8192; in: f32[rows, cols] randn; out: f32[cols, rows]; rtol = 0; atol = 0
__global__ void transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    const int c = blockIdx.x * BX + threadIdx.x;
    const int r = blockIdx.y * BY + threadIdx.y;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((cols + BX - 1) / BX, (rows + BY - 1) / BY);
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
