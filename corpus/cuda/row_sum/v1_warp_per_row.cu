// Row sums: one warp per row, lanes stride over the row (coalesced), shuffle reduction.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 16384; cols = 1024; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-3
__global__ void row_sum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;  // whole warps leave together
    const float* row = x + (size_t)r * cols;
    float s = 0.0f;
    for (int c = lane; c < cols; c += 32) s += row[c];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
    if (lane == 0) out[r] = s;
}

extern "C" void launch_row_sum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (rows + WARPS - 1) / WARPS;
    row_sum<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
