// Dot product: grid-stride products accumulated in registers over 8 blocks per
// SM, warp-shuffle reduction, one atomicAdd per block.
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
__global__ void dot(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ partial,
                    unsigned int* __restrict__ counter, float* __restrict__ out, int n)
{
    __shared__ float warp_part[THREADS / 32];
    float acc = 0.0f;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
        acc = fmaf(x[i], y[i], acc);
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
    const int blocks = NUM_SMS * 8;
    dot<<<blocks, THREADS, 0, stream>>>(x, y, partial, counter, out, n);
}
