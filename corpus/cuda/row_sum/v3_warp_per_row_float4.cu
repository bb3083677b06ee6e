// Row sums: one warp per row with float4 loads (cols % 4 == 0 assumed for the
// vector part; a scalar loop covers the rest), shuffle reduction.
#include <cuda_runtime.h>

#define THREADS   128
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 16384; cols = 1024; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
row_sum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* row = x + (size_t)r * cols;
    const int c4 = (cols & 3) == 0 ? cols / 4 : 0;  // rows are 16-byte aligned only then
    const float4* row4 = reinterpret_cast<const float4*>(row);
    float s0 = 0.0f, s1 = 0.0f;
    for (int c = lane; c < c4; c += 32) {
        const float4 v = row4[c];
        s0 += v.x + v.y;
        s1 += v.z + v.w;
    }
    for (int c = c4 * 4 + lane; c < cols; c += 32) s0 += row[c];
    float s = s0 + s1;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
    if (lane == 0) out[r] = s;
}

extern "C" void launch_row_sum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (rows + WARPS - 1) / WARPS;
    row_sum<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
