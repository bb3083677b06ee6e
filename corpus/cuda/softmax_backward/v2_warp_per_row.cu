// Softmax backward dx = y * (dy - sum(dy * y)) per row. One warp per row (8 rows per 256-thread block):
// coalesced scalar loads, butterfly __shfl_xor_sync sum (no shared memory, no barriers), second pass re-reads.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 32768; cols = 1024; y: f32[rows, cols] rand; dy: f32[rows, cols] randn; dx: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void softmax_backward(const float* __restrict__ y, const float* __restrict__ dy, float* __restrict__ dx,
                                 int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + threadIdx.x / 32;
    if (r >= rows) return;
    const float* yr = y + (size_t)r * cols;
    const float* gr = dy + (size_t)r * cols;
    float* out = dx + (size_t)r * cols;
    float dot = 0.0f;
    for (int c = lane; c < cols; c += 32) dot += yr[c] * gr[c];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) dot += __shfl_xor_sync(FULL_MASK, dot, o);
    for (int c = lane; c < cols; c += 32) out[c] = yr[c] * (gr[c] - dot);
}

extern "C" void launch_softmax_backward(const float* y, const float* dy, float* dx, int rows, int cols,
                                        cudaStream_t stream)
{
    softmax_backward<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(y, dy, dx, rows, cols);
}
