// Softmax backward dx = y * (dy - sum(dy * y)) per row. Same register-cached warp-per-row kernel
// (single read of y and dy) launched with 64-thread blocks: 2 rows per block, 8192 more blocks.
#include <cuda_runtime.h>

#define THREADS   64
#define WARPS     (THREADS / 32)
#define VEC       8   /* float4 per lane: 8 * 4 * 32 = 1024 columns */
#define FULL_MASK 0xffffffffu

// kforecast: rows = 32768; cols = 1024; y: f32[rows, cols] rand; dy: f32[rows, cols] randn; dx: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void softmax_backward(const float* __restrict__ y, const float* __restrict__ dy, float* __restrict__ dx,
                                 int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + threadIdx.x / 32;
    if (r >= rows) return;
    const int n4 = cols / 4;
    const float4* yr = reinterpret_cast<const float4*>(y + (size_t)r * cols);
    const float4* gr = reinterpret_cast<const float4*>(dy + (size_t)r * cols);
    float4* out = reinterpret_cast<float4*>(dx + (size_t)r * cols);
    float4 a[VEC], g[VEC];
    float dot = 0.0f;
#pragma unroll
    for (int v = 0; v < VEC; ++v) {
        const int c = v * 32 + lane;
        if (c < n4) {
            a[v] = yr[c];
            g[v] = gr[c];
            dot += a[v].x * g[v].x + a[v].y * g[v].y + a[v].z * g[v].z + a[v].w * g[v].w;
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) dot += __shfl_xor_sync(FULL_MASK, dot, o);
#pragma unroll
    for (int v = 0; v < VEC; ++v) {
        const int c = v * 32 + lane;
        if (c < n4)
            out[c] = make_float4(a[v].x * (g[v].x - dot), a[v].y * (g[v].y - dot), a[v].z * (g[v].z - dot),
                                 a[v].w * (g[v].w - dot));
    }
}

extern "C" void launch_softmax_backward(const float* y, const float* dy, float* dx, int rows, int cols,
                                        cudaStream_t stream)
{
    softmax_backward<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(y, dy, dx, rows, cols);
}
