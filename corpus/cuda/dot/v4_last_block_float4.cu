// Dot product in one launch: float4 grid-stride loop and warp shuffles per block,
// partial sums to global memory, the last block (ticket from atomicInc) reduces
// the partials with shuffles and writes out[0]. 512 blocks of 512 threads.
#include <cuda_runtime.h>

#define THREADS   512
#define BLOCKS    512
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
    return v;
}

__device__ __forceinline__ float block_sum(float v, float* red)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = warp_sum(lane < THREADS / 32 ? red[lane] : 0.0f);
    __syncthreads();
    return v;  // valid in every thread
}

// kforecast: n = 1 << 24; x: f32[n] randn; y: f32[n] randn; partial: f32[4096] zeros; counter: u32[1] zeros; out: f32[1] zeros; outputs = out; rtol = 1e-3; atol = 1.0
__global__ void __launch_bounds__(THREADS)
dot(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ partial,
    unsigned int* __restrict__ counter, float* __restrict__ out, int n)
{
    __shared__ float red[THREADS / 32];
    __shared__ unsigned ticket;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const float4* y4 = reinterpret_cast<const float4*>(y);
    const int n4 = n >> 2;
    const int tid = blockIdx.x * THREADS + threadIdx.x;
    const int stride = gridDim.x * THREADS;
    float acc = 0.0f;
    for (int i = tid; i < n4; i += stride) {
        const float4 a = x4[i], b = y4[i];
        acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    for (int i = (n4 << 2) + tid; i < n; i += stride) acc += x[i] * y[i];
    acc = block_sum(acc, red);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = acc;
        __threadfence();
        ticket = atomicInc(counter, gridDim.x);
    }
    __syncthreads();
    if (ticket != gridDim.x - 1) return;
    float p = 0.0f;
    for (int b = threadIdx.x; b < gridDim.x; b += THREADS) p += ((volatile float*)partial)[b];
    p = block_sum(p, red);
    if (threadIdx.x == 0) {
        out[0] = p;
        *counter = 0;
    }
}

extern "C" void launch_dot(const float* x, const float* y, float* partial, unsigned int* counter, float* out,
                           int n, cudaStream_t stream)
{
    dot<<<BLOCKS, THREADS, 0, stream>>>(x, y, partial, counter, out, n);
}
