// Dot product: float4 loads of x and y in a grid-stride loop, scalar tail,
// warp-shuffle reduction, one atomicAdd per block (4 blocks of 256 per SM).
#include <cuda_runtime.h>

#define THREADS   256
#define NUM_SMS   132
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
    return v;
}

// kforecast: n = 1 << 24; x: f32[n] randn; y: f32[n] randn; partial: f32[4096] zeros; counter: u32[1] zeros; out: f32[1] zeros; outputs = out; rtol = 1e-3; atol = 1.0
__global__ void __launch_bounds__(THREADS)
dot(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ partial,
    unsigned int* __restrict__ counter, float* __restrict__ out, int n)
{
    __shared__ float warp_part[THREADS / 32];
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const float4* y4 = reinterpret_cast<const float4*>(y);
    const int n4 = n >> 2;
    const int tid = blockIdx.x * THREADS + threadIdx.x;
    const int stride = gridDim.x * THREADS;
    float acc = 0.0f;
    for (int i = tid; i < n4; i += stride) {
        const float4 a = x4[i], b = y4[i];
        acc = fmaf(a.x, b.x, acc);
        acc = fmaf(a.y, b.y, acc);
        acc = fmaf(a.z, b.z, acc);
        acc = fmaf(a.w, b.w, acc);
    }
    for (int i = (n4 << 2) + tid; i < n; i += stride) acc = fmaf(x[i], y[i], acc);
    acc = warp_sum(acc);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_part[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = warp_sum(lane < THREADS / 32 ? warp_part[lane] : 0.0f);
        if (lane == 0) atomicAdd(out, acc);
    }
}

extern "C" void launch_dot(const float* x, const float* y, float* partial, unsigned int* counter, float* out,
                           int n, cudaStream_t stream)
{
    dot<<<NUM_SMS * 4, THREADS, 0, stream>>>(x, y, partial, counter, out, n);
}
