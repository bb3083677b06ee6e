// max |x| into out[0]: the float4 grid-stride version with blocks of 512 threads and the grid
// capped at 4 blocks per SM (same threads per SM); register max, warp shuffles, one atomicMax per
// block. partial and counter are unused scratch.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   512
#define NUM_SMS   132
#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, offset));
    return v;
}

__device__ __forceinline__ float abs_max4(float4 v)
{
    return fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w)));
}

// kforecast: n = 1 << 25; x: f32[n] randn; out: f32[1] zeros; partial: f32[1024] zeros; counter: u32[1] zeros; outputs = out; rtol = 0; atol = 0
__global__ void amax_abs(const float* __restrict__ x, float* __restrict__ out, float* __restrict__ partial,
                         unsigned int* __restrict__ counter, int n)
{
    __shared__ float warp_max_s[THREADS / WARP_SIZE];
    const int n4 = n >> 2;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float m = 0.0f;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n4; i += gridDim.x * THREADS)
        m = fmaxf(m, abs_max4(x4[i]));
    if (blockIdx.x == 0 && threadIdx.x < (n & 3)) m = fmaxf(m, fabsf(x[(n4 << 2) + threadIdx.x]));
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    m = warp_max(m);
    if (lane == 0) warp_max_s[warp] = m;
    __syncthreads();
    if (warp == 0) {
        m = lane < THREADS / WARP_SIZE ? warp_max_s[lane] : 0.0f;
        m = warp_max(m);
        if (lane == 0) atomicMax(reinterpret_cast<int*>(out), __float_as_int(m));
    }
}

extern "C" void launch_amax_abs(const float* x, float* out, float* partial, unsigned int* counter, int n,
                                  cudaStream_t stream)
{
    const int blocks = min(((n >> 2) + THREADS - 1) / THREADS, NUM_SMS * 4);
    amax_abs<<<blocks, THREADS, 0, stream>>>(x, out, partial, counter, n);
}
