// Out-of-place transpose, naive, mapped on the output: threadIdx.x runs along a
// row of out, so writes are coalesced and reads are strided by cols * 4 bytes.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

// kforecast: rows = 4096; cols = 8192; in: f32[rows, cols] randn; out: f32[cols, rows]; rtol = 0; atol = 0
__global__ void transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    const int r = blockIdx.x * BX + threadIdx.x;  // column of out = row of in
    const int c = blockIdx.y * BY + threadIdx.y;  // row of out = column of in
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((rows + BX - 1) / BX, (cols + BY - 1) / BY);
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
