// max |x| into out[0]: float4 grid-stride loop unrolled 4x (four independent float4 loads and
// four running maxima per iteration for memory-level parallelism), grid capped at 4 blocks of
// 256 per SM; warp shuffles, one atomicMax per block. partial and counter are unused scratch.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   256
#define NUM_SMS   132
#define UNROLL    4
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
    const int stride = gridDim.x * THREADS;
    int i = blockIdx.x * THREADS + threadIdx.x;
    float m0 = 0.0f, m1 = 0.0f, m2 = 0.0f, m3 = 0.0f;
    for (; i + 3 * stride < n4; i += UNROLL * stride) {
        const float4 a = x4[i];
        const float4 b = x4[i + stride];
        const float4 c = x4[i + 2 * stride];
        const float4 d = x4[i + 3 * stride];
        m0 = fmaxf(m0, abs_max4(a));
        m1 = fmaxf(m1, abs_max4(b));
        m2 = fmaxf(m2, abs_max4(c));
        m3 = fmaxf(m3, abs_max4(d));
    }
    for (; i < n4; i += stride) m0 = fmaxf(m0, abs_max4(x4[i]));
    if (blockIdx.x == 0 && threadIdx.x < (n & 3)) m1 = fmaxf(m1, fabsf(x[(n4 << 2) + threadIdx.x]));
    float m = fmaxf(fmaxf(m0, m1), fmaxf(m2, m3));
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
    const int blocks = min(((n >> 2) + THREADS * UNROLL - 1) / (THREADS * UNROLL), NUM_SMS * 4);
    amax_abs<<<blocks, THREADS, 0, stream>>>(x, out, partial, counter, n);
}
