// Sum of x^2 into out[0]: float4 grid-stride loop unrolled 4x with four independent accumulators (ILP), warp shuffles, one atomicAdd per block.
#include <cuda_runtime.h>

#define THREADS   256
#define NUM_SMS   132
#define UNROLL    4
#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, offset);
    return v;
}

__device__ __forceinline__ float sq4(float4 v, float acc)
{
    acc = fmaf(v.x, v.x, acc);
    acc = fmaf(v.y, v.y, acc);
    acc = fmaf(v.z, v.z, acc);
    return fmaf(v.w, v.w, acc);
}

// kforecast: rows = 3584; cols = 4096; x: f32[rows, cols] randint(-1,2); out: f32[1] zeros; rtol = 1e-3; atol = 1.0
__global__ void __launch_bounds__(THREADS)
frobenius_norm(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float warp_sums[THREADS / WARP_SIZE];
    const int n = rows * cols;
    const int n4 = n >> 2;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const int tid = blockIdx.x * THREADS + threadIdx.x;
    const int stride = gridDim.x * THREADS;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    int i = tid;
    for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
        const float4 v0 = x4[i];
        const float4 v1 = x4[i + stride];
        const float4 v2 = x4[i + 2 * stride];
        const float4 v3 = x4[i + 3 * stride];
        a0 = sq4(v0, a0);
        a1 = sq4(v1, a1);
        a2 = sq4(v2, a2);
        a3 = sq4(v3, a3);
    }
    for (; i < n4; i += stride) a0 = sq4(x4[i], a0);
    for (int j = n4 * 4 + tid; j < n; j += stride) a1 = fmaf(x[j], x[j], a1);
    float acc = (a0 + a1) + (a2 + a3);
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    acc = warp_sum(acc);
    if (lane == 0) warp_sums[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f;
        acc = warp_sum(acc);
        if (lane == 0) atomicAdd(out, acc);
    }
}

extern "C" void launch_frobenius_norm(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int n = rows * cols;
    const int blocks = min(((n >> 2) + THREADS * UNROLL - 1) / (THREADS * UNROLL) + 1, NUM_SMS * 4);
    frobenius_norm<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
