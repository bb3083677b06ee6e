// Column sums: one warp per column, lanes stride down the rows and reduce with
// shuffles. Every load of a warp touches 32 different rows: uncoalesced.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 4096; cols = 4096; x: f32[rows, cols] randn; out: f32[cols] zeros; rtol = 1e-3; atol = 1e-2
__global__ void col_sum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int c = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (c >= cols) return;
    float s = 0.0f;
    for (int r = lane; r < rows; r += 32) s += x[(size_t)r * cols + c];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
    if (lane == 0) out[c] = s;
}

extern "C" void launch_col_sum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (cols + WARPS - 1) / WARPS;
    col_sum<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
