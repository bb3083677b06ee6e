// max |x| into out[0] without atomics on out: float4 grid-stride block maxima written to
// partial[block], a threadfence and a ticket (atomicInc on counter, which wraps back to 0), and
// the last block to finish reduces the partials and stores out[0] (single pass, one launch).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   256
#define NUM_SMS   132
#define MAX_BLOCKS 1024
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

__device__ __forceinline__ float block_max(float m, float* warp_max_s)
{
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    m = warp_max(m);
    if (lane == 0) warp_max_s[warp] = m;
    __syncthreads();
    m = lane < THREADS / WARP_SIZE ? warp_max_s[lane] : 0.0f;
    return warp_max(m);
}

// kforecast: n = 1 << 25; x: f32[n] randn; out: f32[1] zeros; partial: f32[1024] zeros; counter: u32[1] zeros; outputs = out; rtol = 0; atol = 0
__global__ void amax_abs(const float* __restrict__ x, float* __restrict__ out, float* __restrict__ partial,
                         unsigned int* __restrict__ counter, int n)
{
    __shared__ float warp_max_s[THREADS / WARP_SIZE];
    __shared__ bool is_last;
    const int n4 = n >> 2;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float m = 0.0f;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n4; i += gridDim.x * THREADS)
        m = fmaxf(m, abs_max4(x4[i]));
    if (blockIdx.x == 0 && threadIdx.x < (n & 3)) m = fmaxf(m, fabsf(x[(n4 << 2) + threadIdx.x]));
    m = block_max(m, warp_max_s);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = m;
        __threadfence();
        const unsigned ticket = atomicInc(counter, gridDim.x - 1);
        is_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (!is_last) return;
    const volatile float* vp = partial;
    float r = 0.0f;
    for (int b = threadIdx.x; b < gridDim.x; b += THREADS) r = fmaxf(r, vp[b]);
    __syncthreads();
    r = block_max(r, warp_max_s);
    if (threadIdx.x == 0) out[0] = r;
}

extern "C" void launch_amax_abs(const float* x, float* out, float* partial, unsigned int* counter, int n,
                                  cudaStream_t stream)
{
    const int blocks = min(((n >> 2) + THREADS - 1) / THREADS, NUM_SMS * 4);  // <= MAX_BLOCKS partials
    amax_abs<<<blocks, THREADS, 0, stream>>>(x, out, partial, counter, n);
}
