// Per-row population variance, exact two-pass from registers: one block of 256 threads per row keeps up to 4 float4 of the row per thread (cols % 4 == 0, cols <= 4096), block sum via shuffles and shared memory for the mean, then a second reduction of squared deviations from the cached values.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define VPT       4
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float block_sum(float v, float* sh)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
    if (lane == 0) sh[warp] = v;
    __syncthreads();
    float t = 0.0f;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) t += sh[w];
    __syncthreads();
    return t;
}

// kforecast: rows = 16384; cols = 4096; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
welford_var_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float sh[WARPS];
    const float4* x4 = reinterpret_cast<const float4*>(x + (size_t)blockIdx.x * cols);
    const int n4 = cols >> 2;
    float4 v[VPT];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        const int c = threadIdx.x + k * THREADS;
        v[k] = c < n4 ? x4[c] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    const float mean = block_sum(s, sh) / cols;
    float q = 0.0f;
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        if (threadIdx.x + k * THREADS < n4) {
            const float dx = v[k].x - mean, dy = v[k].y - mean, dz = v[k].z - mean, dw = v[k].w - mean;
            q += (dx * dx + dy * dy) + (dz * dz + dw * dw);
        }
    }
    q = block_sum(q, sh);
    if (threadIdx.x == 0) out[blockIdx.x] = q / cols;
}

extern "C" void launch_welford_var_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    welford_var_rows<<<rows, THREADS, 0, stream>>>(x, out, rows, cols);
}
